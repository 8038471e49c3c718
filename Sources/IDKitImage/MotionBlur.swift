internal import COpenCVShim

/// The straight-line motion blur of a hand-held photo: the camera moved `length` pixels along
/// `angle` during the exposure. Estimated from the image's cepstrum (``GrayImage/motionBlur()``).
public struct MotionBlur: Sendable, Equatable {
    /// The distance the image moved, in pixels.
    public var length: Double
    /// The direction it moved in, in radians, 0 ≤ angle < π, in image coordinates (y down).
    public var angle: Double
    /// How clearly the image shows the blur: standard deviations by which the cepstrum's peak
    /// stands out (about 1–5 on a sharp photo, 3–10 on a blurred one).
    public var strength: Double
    /// How much weaker the image's spectrum is along the blur than across it (mean natural log of
    /// the magnitude, between the blur's first and third zeros).
    public var anisotropy: Double

    public init(length: Double, angle: Double, strength: Double, anisotropy: Double) {
        self.length = length
        self.angle = angle
        self.strength = strength
        self.anisotropy = anisotropy
    }

    /// Whether the image is smeared along the blur: at least ``noticeableLength`` pixels, and a
    /// spectrum at least ``noticeableAnisotropy`` weaker along it than across. The cepstrum's
    /// peak alone does not tell: sharp real specimens put it 1.8–4.9 deviations deep at 5–16 px,
    /// as deep as the generated motion blur (2.8–9.8). The anisotropy does: at most 0.3 on the
    /// 33 real specimens and on the generated photos of the other capture conditions, at least
    /// 0.8 on every generated blur of 7 px and more (0.5 at 5 px), 1.2–1.9 on the other
    /// generator's three.
    public var isNoticeable: Bool { length >= Self.noticeableLength && anisotropy >= Self.noticeableAnisotropy }

    public static let noticeableLength = 5.0
    public static let noticeableAnisotropy = 0.5
}

extension GrayImage {
    /// Images larger than this are not deblurred: the restoration holds about 40 bytes a pixel
    /// while it runs (the image and its spectra in floating point).
    public static let largestDeblurredPixels = 6_000_000

    /// The image's linear motion blur, from the averaged log-spectra of its 128 × 128 tiles that are
    /// not blank (OpenCV's dft, through the shim); `nil` for an image smaller than one tile, a blank
    /// one, or when OpenCV fails.
    public func motionBlur() -> MotionBlur? {
        var length = 0.0, angle = 0.0, strength = 0.0, anisotropy = 0.0
        let tiles = pixels.withUnsafeBufferPointer { p in
            idk_motion_blur_estimate(p.baseAddress, Int32(width), Int32(height), &length, &angle, &strength, &anisotropy)
        }
        return tiles > 0 ? MotionBlur(length: length, angle: angle, strength: strength, anisotropy: anisotropy) : nil
    }

    /// The image restored from `blur` by Wiener deconvolution, `noise` the noise-to-signal power
    /// ratio it assumes (0.01 suits a JPEG photo: lower rings, higher leaves blur). `nil` for an
    /// image over ``largestDeblurredPixels`` or when OpenCV fails.
    public func deblurred(_ blur: MotionBlur, noise: Double = 0.01) -> GrayImage? {
        guard width > 0, height > 0, width * height <= Self.largestDeblurredPixels else { return nil }
        var out = [UInt8](repeating: 0, count: pixels.count)
        let status = pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                idk_motion_deblur(src.baseAddress, Int32(width), Int32(height), blur.length, blur.angle, noise, dst.baseAddress)
            }
        }
        return status == 0 ? GrayImage(width: width, height: height, pixels: out) : nil
    }
}
