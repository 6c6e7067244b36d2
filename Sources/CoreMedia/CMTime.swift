// CoreMedia's time, as iOS code uses it (a seek handler computing where to go): a rational time
// `value / timescale` seconds with Apple's flags, arithmetic and ordering. Standard library only.

public typealias CMTimeValue = Int64
public typealias CMTimeScale = Int32
public typealias CMTimeEpoch = Int64

/// `CMTime.flags`.
public struct CMTimeFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// How a conversion to another timescale rounds.
public enum CMTimeRoundingMethod: UInt32, Sendable {
    case roundHalfAwayFromZero = 1
    case roundTowardZero = 2
    case roundAwayFromZero = 3
    case quickTime = 4
    case roundTowardPositiveInfinity = 5
    case roundTowardNegativeInfinity = 6
    public static let `default` = CMTimeRoundingMethod.roundHalfAwayFromZero
}

/// The largest timescale Apple allows.
public let kCMTimeMaxTimescale: Int32 = 0x7fff_ffff

public struct CMTime: Sendable, CustomStringConvertible {
    public var value: CMTimeValue
    public var timescale: CMTimeScale
    public var flags: CMTimeFlags
    public var epoch: CMTimeEpoch

    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        (self.value, self.timescale, self.flags, self.epoch) = (value, timescale, flags, epoch)
    }

    /// A valid time of `value / timescale` seconds (a timescale of 0 or less: invalid, as Apple's).
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.init(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: 0)
    }

    /// `seconds` at `preferredTimescale`, rounded half away from zero; a timescale halved until the
    /// value fits in 64 bits (then `hasBeenRounded`). NaN is invalid, ±infinity the infinities.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        if seconds.isNaN || preferredTimescale <= 0 {
            self = .invalid
            return
        }
        if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        var timescale = preferredTimescale
        var exact = seconds * Double(timescale)
        while abs(exact) >= 9.2e18, timescale > 1 {
            timescale /= 2
            exact = seconds * Double(timescale)
        }
        let rounded = exact.rounded(.toNearestOrAwayFromZero)
        var flags: CMTimeFlags = .valid
        if rounded != exact { flags.insert(.hasBeenRounded) }
        self.init(value: CMTimeValue(rounded), timescale: timescale, flags: flags, epoch: 0)
    }

    public static let zero = CMTime(value: 0, timescale: 1)
    public static let invalid = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    public var isValid: Bool { flags.contains(.valid) }
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Valid, and neither indefinite nor infinite.
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) }
    public var hasBeenRounded: Bool { isNumeric && flags.contains(.hasBeenRounded) }

    /// Seconds; NaN for an invalid or indefinite time, ±infinity for the infinities.
    public var seconds: Double {
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        guard isNumeric else { return .nan }
        return Double(value) / Double(timescale)
    }

    /// The same time at another timescale, rounded as `method` says (`hasBeenRounded` if it was).
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        guard isNumeric, newTimescale > 0 else { return isNumeric ? .invalid : self }
        let (result, exact) = Self.rescale(value, from: timescale, to: newTimescale, method)
        guard let result else { return .invalid }
        var flags = self.flags
        if !exact { flags.insert(.hasBeenRounded) }
        return CMTime(value: result, timescale: newTimescale, flags: flags, epoch: epoch)
    }

    /// `value · to / from`, rounded; nil when it does not fit.
    static func rescale(_ value: Int64, from: Int32, to: Int32, _ method: CMTimeRoundingMethod) -> (Int64?, exact: Bool) {
        let (product, overflow) = value.multipliedReportingOverflow(by: Int64(to))
        guard !overflow else {
            let approximate = (Double(value) * Double(to) / Double(from)).rounded(.toNearestOrAwayFromZero)
            return abs(approximate) < 9.2e18 ? (Int64(approximate), false) : (nil, false)
        }
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: Int64(from))
        guard remainder != 0 else { return (quotient, true) }
        let away = quotient + (product < 0 ? -1 : 1)
        let twice = abs(remainder) * 2
        switch method {
        case .roundHalfAwayFromZero, .quickTime: return (twice >= Int64(from) ? away : quotient, false)
        case .roundTowardZero: return (quotient, false)
        case .roundAwayFromZero: return (away, false)
        case .roundTowardPositiveInfinity: return (product > 0 ? away : quotient, false)
        case .roundTowardNegativeInfinity: return (product < 0 ? away : quotient, false)
        }
    }

    public var description: String {
        if !isValid { return "CMTime(invalid)" }
        if isIndefinite { return "CMTime(indefinite)" }
        if isPositiveInfinity { return "CMTime(+infinity)" }
        if isNegativeInfinity { return "CMTime(-infinity)" }
        return "CMTime(\(value)/\(timescale) = \(seconds) s)"
    }
}

extension CMTime: Comparable, Hashable {
    /// Apple's order (`CMTimeCompare`): negative infinity < numeric times < indefinite < positive
    /// infinity < invalid; numeric times by their value in seconds, whatever their timescales.
    public static func < (a: CMTime, b: CMTime) -> Bool { CMTimeCompare(a, b) < 0 }
    public static func == (a: CMTime, b: CMTime) -> Bool { CMTimeCompare(a, b) == 0 }

    public func hash(into hasher: inout Hasher) {
        guard isNumeric else {
            hasher.combine(Self.rank(self))
            return
        }
        // Equal times at different timescales hash alike: the reduced fraction.
        let divisor = Self.gcd(abs(value), Int64(timescale))
        hasher.combine(divisor == 0 ? 0 : value / divisor)
        hasher.combine(divisor == 0 ? 1 : Int64(timescale) / divisor)
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// The kind's place in Apple's order.
    static func rank(_ time: CMTime) -> Int {
        if !time.isValid { return 4 }
        if time.isPositiveInfinity { return 3 }
        if time.isIndefinite { return 2 }
        if time.isNegativeInfinity { return 0 }
        return 1
    }

    public static func + (a: CMTime, b: CMTime) -> CMTime { CMTimeAdd(a, b) }
    public static func - (a: CMTime, b: CMTime) -> CMTime { CMTimeSubtract(a, b) }
    public static func += (a: inout CMTime, b: CMTime) { a = CMTimeAdd(a, b) }
    public static func -= (a: inout CMTime, b: CMTime) { a = CMTimeSubtract(a, b) }
}

// MARK: The C functions, as Swift imports them

public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }

public func CMTimeMakeWithSeconds(_ seconds: Double, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    var time = CMTime(value: value, timescale: timescale)
    time.epoch = epoch
    return time
}

public func CMTimeGetSeconds(_ time: CMTime) -> Double { time.seconds }

public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    time.convertScale(newTimescale, method: method)
}

/// −1, 0 or 1, in Apple's order (see `<`).
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    let (rank1, rank2) = (CMTime.rank(time1), CMTime.rank(time2))
    if rank1 != rank2 { return rank1 < rank2 ? -1 : 1 }
    guard rank1 == 1 else { return 0 }
    if time1.epoch != time2.epoch { return time1.epoch < time2.epoch ? -1 : 1 }
    // value1/ts1 vs value2/ts2, exactly where it fits.
    let (left, overflow1) = time1.value.multipliedReportingOverflow(by: Int64(time2.timescale))
    let (right, overflow2) = time2.value.multipliedReportingOverflow(by: Int64(time1.timescale))
    if !overflow1, !overflow2 { return left == right ? 0 : (left < right ? -1 : 1) }
    return time1.seconds == time2.seconds ? 0 : (time1.seconds < time2.seconds ? -1 : 1)
}

public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { combine(lhs, rhs, subtracting: false) }
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { combine(lhs, rhs, subtracting: true) }

/// Apple's rules: invalid wins; indefinite next; +∞ + −∞ is indefinite; an infinity wins over a
/// number; two numbers at the least common multiple of their timescales (the larger timescale,
/// rounded, when that does not fit).
private func combine(_ lhs: CMTime, _ rhs: CMTime, subtracting: Bool) -> CMTime {
    guard lhs.isValid, rhs.isValid else { return .invalid }
    if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
    let rightPositive = subtracting ? rhs.isNegativeInfinity : rhs.isPositiveInfinity
    let rightNegative = subtracting ? rhs.isPositiveInfinity : rhs.isNegativeInfinity
    if (lhs.isPositiveInfinity && rightNegative) || (lhs.isNegativeInfinity && rightPositive) { return .indefinite }
    if lhs.isPositiveInfinity || rightPositive { return .positiveInfinity }
    if lhs.isNegativeInfinity || rightNegative { return .negativeInfinity }
    let divisor = CMTime.gcd(Int64(lhs.timescale), Int64(rhs.timescale))
    let lcm = Int64(lhs.timescale) / divisor * Int64(rhs.timescale)
    let timescale = lcm <= Int64(kCMTimeMaxTimescale) ? Int32(lcm) : max(lhs.timescale, rhs.timescale)
    let a = lhs.convertScale(timescale, method: .default)
    let b = rhs.convertScale(timescale, method: .default)
    let (sum, overflow) =
        subtracting ? a.value.subtractingReportingOverflow(b.value) : a.value.addingReportingOverflow(b.value)
    if overflow { return sum < 0 ? .positiveInfinity : .negativeInfinity }
    var flags: CMTimeFlags = .valid
    if a.flags.contains(.hasBeenRounded) || b.flags.contains(.hasBeenRounded) { flags.insert(.hasBeenRounded) }
    return CMTime(value: sum, timescale: timescale, flags: flags, epoch: lhs.epoch)
}

public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    guard time.isNumeric else {
        if multiplier == 0, time.isPositiveInfinity || time.isNegativeInfinity { return .indefinite }
        if multiplier < 0, time.isPositiveInfinity { return .negativeInfinity }
        if multiplier < 0, time.isNegativeInfinity { return .positiveInfinity }
        return time
    }
    let (product, overflow) = time.value.multipliedReportingOverflow(by: Int64(multiplier))
    if overflow { return (time.value < 0) != (multiplier < 0) ? .negativeInfinity : .positiveInfinity }
    return CMTime(value: product, timescale: time.timescale, flags: time.flags, epoch: time.epoch)
}

public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Double) -> CMTime {
    guard time.isNumeric else { return CMTimeMultiply(time, multiplier: multiplier < 0 ? -1 : (multiplier == 0 ? 0 : 1)) }
    return CMTime(seconds: time.seconds * multiplier, preferredTimescale: time.timescale)
}

public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    if time.isNegativeInfinity { return .positiveInfinity }
    guard time.isNumeric, time.value < 0 else { return time }
    return CMTime(value: -time.value, timescale: time.timescale, flags: time.flags, epoch: time.epoch)
}

public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime { CMTimeCompare(time1, time2) <= 0 ? time1 : time2 }
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime { CMTimeCompare(time1, time2) >= 0 ? time1 : time2 }

public let kCMTimeZero = CMTime.zero
public let kCMTimeInvalid = CMTime.invalid
public let kCMTimeIndefinite = CMTime.indefinite
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity

/// Nanoseconds per second (Apple's `<sys/time.h>` / Dispatch's constant): a seek handler's
/// `CMTime(value: Int64(seconds * Double(NSEC_PER_SEC)), timescale: Int32(NSEC_PER_SEC))`.
public let NSEC_PER_SEC: UInt64 = 1_000_000_000
