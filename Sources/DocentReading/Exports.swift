// Readers are built on the JSON value and the text helpers; their users see both.
@_exported import DocentJSON
@_exported import DocentText
