// `import UIKit` brings Foundation, as Apple's does: an Xcode template's file that imports only
// UIKit and uses Date, URL or NotificationCenter builds here too.
@_exported import Foundation
