import DocentCore
import DocentUI

/// A key as the guide handles it: the key map's action for it in `state`, prepared (nothing
/// asserted; the caller checks what it needs). A key the map ignores does nothing and answers
/// no effects. With `asVisitor`, the loop's `.visitorInput` comes first, as in the guide.
@discardableResult
public func pressKey(_ state: inout AppState, _ key: Key, asVisitor: Bool = false) -> [Effect] {
    var effects = asVisitor ? prepare(&state, .visitorInput) : []
    if let a = KeyMap.action(for: key, in: state) { effects += prepare(&state, a) }
    return effects
}
