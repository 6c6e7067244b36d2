// The Swift toolchain's Testing library names a cross-import overlay for UIKit, `_Testing_UIKit`
// (Testing.swiftcrossimport/UIKit.swiftoverlay), imported whenever a file imports both; Apple's
// systems have it, Linux's toolchain does not, so a test file importing Testing and this UIKit
// would not build ("no such module '_Testing_UIKit'"). This empty module is that overlay: it adds nothing
// (Apple's makes UIImage a test attachment; not offered here).
