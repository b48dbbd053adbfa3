// Pulse values carry a language and report failures as sentences (DocentText), and the seed is
// read as JSON (DocentJSON): whoever imports the kit sees both.
@_exported import DocentJSON
@_exported import DocentText
