// The UI measures text with the core's TextWidth, the same function the reducer uses to
// know how many lines a text page wraps to.
@_exported import DocentCore
