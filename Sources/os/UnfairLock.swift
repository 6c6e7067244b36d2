// Apple's `os` brings the C library's declarations with it; so does this one (code that locks
// with os_unfair_lock on one path may free with pthread on another, as swift-argument-parser does).
#if canImport(Glibc)
@_exported import Glibc
#endif

// `os_unfair_lock` as Apple's C API spells it, over a pthread mutex. Beyond iOS code that takes
// the lock itself, this is what a package built beside this module needs when it checks
// `#if canImport(os)` and then locks with it (swift-argument-parser's Mutex does): with an `os`
// module present, such code takes its Apple path on Linux too. Everything is emitted into the
// client and the type is Glibc's, so that code links without depending on this module.

/// Apple's lock type; here a pthread mutex (its zero value is a valid unlocked mutex on glibc).
// swift-format-ignore: TypeNamesShouldBeCapitalized
public typealias os_unfair_lock = pthread_mutex_t
// swift-format-ignore: TypeNamesShouldBeCapitalized
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock>

@_alwaysEmitIntoClient
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) { pthread_mutex_lock(lock) }

@_alwaysEmitIntoClient
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) { pthread_mutex_unlock(lock) }

@_alwaysEmitIntoClient
public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { pthread_mutex_trylock(lock) == 0 }

@_alwaysEmitIntoClient
public func os_unfair_lock_assert_owner(_ lock: os_unfair_lock_t) {}

@_alwaysEmitIntoClient
public func os_unfair_lock_assert_not_owner(_ lock: os_unfair_lock_t) {}
