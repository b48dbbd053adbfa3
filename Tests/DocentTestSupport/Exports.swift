// The UI and app tests see `send` and `prepare` through this target too.
@_exported import DocentCoreTestSupport
