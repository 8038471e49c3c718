/// The version of IDKit: `idkit --version`, the service's `/version` and `/openapi.json`, and
/// `idkit_version()` of the C interface all say this one.
///
/// The one place the version is written. The Makefile reads it from this line (idkit.pc), the man
/// pages from `idkit --version`, the Python package's `__version__` from `idkit_version()`;
/// python/pyproject.toml repeats it, and Tests/IDKitCLITests/VersionTests.swift fails when the two differ.
public enum IDKitVersion {
    public static let string = "1.0.0"
}
