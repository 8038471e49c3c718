/// The version of IDKit: `idkit --version`, the service's `/version` and `/openapi.json`, and
/// `idkit_version()` of the C interface all say this one.
public enum IDKitVersion {
    public static let string = "0.1.0"
}
