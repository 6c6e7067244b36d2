import Testing

@testable import AudioSessionEngine

@Suite("Categories, options and modes (SPEC §1–3)")
struct CategoryTests {
    @Test("C8: a new session is soloAmbient, default mode, no options, inactive")
    func newSessionDefaults() throws {
        var engine = Engine()
        try engine.register("a")
        let status = try #require(engine.status(of: "a"))
        #expect(status.category == .soloAmbient)
        #expect(status.mode == .default)
        #expect(status.categoryOptions == [])
        #expect(!status.isActive)
    }
}
