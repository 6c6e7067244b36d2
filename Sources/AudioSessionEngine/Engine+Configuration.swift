import AudioSessionModel

/// Categories, options and modes (SPEC §1–3) and their checks while active (A9).
extension Engine {
    /// C9, C10, O1, M1, A9, IO3: `setCategory(category, mode:, options:)`.
    mutating func setCategory(
        _ index: Int, _ category: Category, _ mode: Mode, _ options: CategoryOptions, _ context: inout StepContext
    ) throws(SessionError) {
        try Self.validate(category, options)
        try Self.validate(mode, category)
        try checkReconfiguration(index, category, mode, options)
        let addsInterruptSpoken = adds(.interruptSpokenAudioAndMixWithOthers, index, options)
        // RT7: any setCategory call ends the speaker override.
        reconfigure(index, &context) {
            $0.configure(category, mode, options)
            $0.overridesToSpeaker = false
        }
        // IO3: I/O stops in a direction the new category lacks.
        stopIO(index, output: !category.hasOutput, input: !category.hasInput, &context)
        actLikeActivation(index, addsInterruptSpoken: addsInterruptSpoken, &context)
    }

    /// M1, M3, A9: `setMode(mode)` keeps the category and the options the app set.
    mutating func setMode(_ index: Int, _ mode: Mode, _ context: inout StepContext) throws(SessionError) {
        let session = sessions[index]
        try Self.validate(mode, session.category)
        try checkReconfiguration(index, session.category, mode, session.setOptions)
        configure(index, session.category, mode, session.setOptions, &context)
        actLikeActivation(index, addsInterruptSpoken: false, &context)
    }

    /// O1, M1 without a session: whether an app could set this configuration (the device
    /// policy's entries are checked so, §17; the error is the one `setCategory` would throw).
    public static func checkConfiguration(_ category: Category, _ mode: Mode, _ options: CategoryOptions) throws(SessionError) {
        try validate(category, options)
        try validate(mode, category)
    }

    /// O1: every option must be known and valid for the category (implied ones may be set too).
    static func validate(_ category: Category, _ options: CategoryOptions) throws(SessionError) {
        // A bit that no named option covers (0x10 alone, say) is not an option.
        let covered = CategoryOptions(CategoryOptions.named.map(\.option).filter { options.contains($0) })
        let unknown = options.subtracting(covered)
        guard unknown.isEmpty else {
            throw SessionError(.badParam, "O1: 0x\(String(unknown.rawValue, radix: 16)) is not a category option")
        }
        for (name, option) in CategoryOptions.named where options.contains(option) {
            guard option.isValid(with: category) else {
                throw SessionError(.badParam, "O1: option \(name) is not valid with category \(category)")
            }
        }
    }

    /// M1: the mode must be valid for the category.
    static func validate(_ mode: Mode, _ category: Category) throws(SessionError) {
        guard mode.isValid(with: category) else {
            throw SessionError(.badParam, "M1: mode \(mode) is not valid with category \(category)")
        }
    }

    /// A9: a change of an active session that takes part in arbitration is checked as an
    /// activation of the new configuration (A3, then A4), even when it changes nothing.
    private func checkReconfiguration(
        _ index: Int, _ category: Category, _ mode: Mode, _ options: CategoryOptions
    ) throws(SessionError) {
        guard sessions[index].isActive, category.takesPartInArbitration else { return }
        let effective = SessionRecord.effectiveOptions(category, mode, options)
        try checkActivation(index, category, effective)
    }

    private func adds(_ option: CategoryOptions, _ index: Int, _ newOptions: CategoryOptions) -> Bool {
        newOptions.contains(option) && !sessions[index].setOptions.contains(option)
    }

    /// A9: a successful change of an active session acts like an activation: non-mixable, it
    /// interrupts as A2; gaining interruptSpoken…, it interrupts as I6.
    private mutating func actLikeActivation(_ index: Int, addsInterruptSpoken: Bool, _ context: inout StepContext) {
        let session = sessions[index]
        guard session.isActive, session.takesPartInArbitration else { return }
        if session.isArbitratedNonMixable { interruptNonMixableOthers(of: index, &context) }
        if addsInterruptSpoken { interruptSpokenAudio(of: index, &context) }
    }
}
