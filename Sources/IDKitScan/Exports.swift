/// The MRZ reading types that a scan's result carries (``MRZBand``, ``MRZReading``,
/// ``MRZRecognizer``) and the reader itself (``MRZScanner``) come with `import IDKitScan`.
@_exported import IDKitMRZReading
