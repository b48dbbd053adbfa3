import DocentCore
import Foundation

/// Turns a command-line path into an absolute one, so relative URLs inside resolve correctly.
package enum SourceLocation {
    package static func normalise(_ s: String) -> String {
        if URLResolver.hasScheme(s) { return s }
        if s.hasPrefix("/") { return s }
        let cwd = FileManager.default.currentDirectoryPath
        return URLResolver(base: cwd + "/").resolve(s) ?? s
    }
}
