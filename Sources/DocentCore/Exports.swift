// The core is built on the lower pure targets; whoever imports the core sees them too.
@_exported import DocentJSON
@_exported import DocentReading
@_exported import DocentText
@_exported import PulseKit
