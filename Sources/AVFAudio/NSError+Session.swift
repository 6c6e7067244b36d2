import AudioSession
import Foundation

extension SessionError {
    /// SPEC §12 as iOS code reads it: `NSOSStatusErrorDomain`, the OSStatus as the code, the
    /// message (naming the rule) as the localized description.
    var nsError: NSError {
        NSError(
            domain: NSOSStatusErrorDomain, code: Int(code.rawValue),
            userInfo: [NSLocalizedDescriptionKey: message])
    }
}
