import CoreMedia
import Testing

/// CoreMedia's CMTime against the values Apple documents (CMTime.h and its reference pages).
@Suite("CMTime as Apple defines it")
struct CMTimeTests {
    @Test("Making times: CMTimeMake, CMTimeMakeWithSeconds (rounded half away from zero), zero, invalid")
    func making() {
        let half = CMTimeMakeWithSeconds(0.5, preferredTimescale: 600)
        #expect(half.value == 300 && half.timescale == 600 && half.flags == .valid)
        let third = CMTimeMakeWithSeconds(1.0 / 3, preferredTimescale: 10)
        #expect(third.value == 3 && third.hasBeenRounded, "0.333… s at 10: 3/10, rounded")
        #expect(CMTimeMakeWithSeconds(-2.55, preferredTimescale: 10).value == -26, "half away from zero")
        #expect(CMTimeMake(value: 1, timescale: 4).seconds == 0.25)
        #expect(CMTimeGetSeconds(CMTime(value: 90, timescale: 30)) == 3)
        #expect(CMTime.zero.seconds == 0 && CMTime.zero.isNumeric && kCMTimeZero == .zero)
        #expect(!CMTime.invalid.isValid && CMTime.invalid.seconds.isNaN)
        #expect(!CMTimeMake(value: 1, timescale: 0).isValid, "a timescale of 0 is invalid")
        #expect(CMTime.indefinite.isIndefinite && CMTime.indefinite.seconds.isNaN && !CMTime.indefinite.isNumeric)
        #expect(CMTime.positiveInfinity.seconds == .infinity && CMTime.negativeInfinity.seconds == -.infinity)
        #expect(CMTime(seconds: .nan, preferredTimescale: 600) == .invalid)
        #expect(CMTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
        // A seek handler's nanoseconds.
        let seek = CMTime(value: Int64(12.5 * Double(NSEC_PER_SEC)), timescale: Int32(NSEC_PER_SEC))
        #expect(seek.seconds == 12.5)
    }

    @Test("Comparing across timescales, in Apple's order of the special times")
    func comparing() {
        #expect(CMTimeMake(value: 1, timescale: 2) == CMTimeMake(value: 2, timescale: 4))
        #expect(Set([CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 300, timescale: 600)]).count == 1)
        #expect(CMTimeCompare(CMTimeMake(value: 1, timescale: 3), CMTimeMake(value: 1, timescale: 2)) == -1)
        // −∞ < numbers < indefinite < +∞ < invalid; each equal to itself.
        let ordered: [CMTime] = [
            .negativeInfinity, CMTimeMake(value: -5, timescale: 1), .zero, .indefinite, .positiveInfinity, .invalid,
        ]
        for (index, time) in ordered.enumerated() {
            #expect(CMTimeCompare(time, time) == 0, "\(time) equals itself")
            for later in ordered[(index + 1)...] { #expect(time < later, "\(time) < \(later)") }
        }
        #expect(CMTimeMaximum(.zero, CMTimeMake(value: 1, timescale: 1)) == CMTimeMake(value: 1, timescale: 1))
        #expect(CMTimeMinimum(.zero, .negativeInfinity) == .negativeInfinity)
    }

    @Test("Arithmetic: the least common multiple of the timescales; Apple's rules for the special times")
    func arithmetic() {
        let sum = CMTimeAdd(CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 1, timescale: 3))
        #expect(sum.value == 5 && sum.timescale == 6)
        let difference = CMTimeMake(value: 3, timescale: 4) - CMTimeMake(value: 1, timescale: 4)
        #expect(difference.value == 2 && difference.timescale == 4 && difference.seconds == 0.5)
        var position = CMTimeMakeWithSeconds(10, preferredTimescale: 600)
        position += CMTimeMakeWithSeconds(15, preferredTimescale: 1_000)
        #expect(position.seconds == 25 && position.timescale == 3_000)
        #expect(CMTimeMultiply(CMTimeMake(value: 1, timescale: 3), multiplier: 3).seconds == 1)
        #expect(CMTimeMultiplyByFloat64(CMTimeMake(value: 10, timescale: 1), multiplier: 1.5).seconds == 15)
        #expect(CMTimeAbsoluteValue(CMTimeMake(value: -7, timescale: 2)).seconds == 3.5)
        #expect(CMTimeAdd(.invalid, .zero) == .invalid)
        #expect(CMTimeAdd(.indefinite, .zero).isIndefinite)
        #expect(CMTimeAdd(.positiveInfinity, .negativeInfinity).isIndefinite)
        #expect(CMTimeSubtract(.positiveInfinity, .positiveInfinity).isIndefinite)
        #expect(CMTimeAdd(.positiveInfinity, CMTimeMake(value: 5, timescale: 1)).isPositiveInfinity)
        #expect(CMTimeMultiply(.positiveInfinity, multiplier: -2).isNegativeInfinity)
    }

    @Test("Converting the timescale rounds as asked and says so")
    func converting() {
        let third = CMTimeMake(value: 1, timescale: 3)
        let tenths = CMTimeConvertScale(third, timescale: 10, method: .roundHalfAwayFromZero)
        #expect(tenths.value == 3 && tenths.timescale == 10 && tenths.hasBeenRounded)
        #expect(CMTimeConvertScale(CMTimeMake(value: 2, timescale: 3), timescale: 10, method: .roundTowardZero).value == 6)
        #expect(CMTimeConvertScale(CMTimeMake(value: 2, timescale: 3), timescale: 10, method: .roundAwayFromZero).value == 7)
        #expect(
            CMTimeConvertScale(CMTimeMake(value: -2, timescale: 3), timescale: 10, method: .roundTowardPositiveInfinity).value
                == -6)
        #expect(
            CMTimeConvertScale(CMTimeMake(value: -2, timescale: 3), timescale: 10, method: .roundTowardNegativeInfinity).value
                == -7)
        let exact = CMTimeConvertScale(CMTimeMake(value: 1, timescale: 2), timescale: 600, method: .default)
        #expect(exact.value == 300 && !exact.hasBeenRounded)
    }
}
