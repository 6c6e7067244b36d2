import AudioSessionDaemon
import Testing

/// T5: how descriptors are shared (docs/trust-and-limits.md "Descriptors").
@Suite("Descriptor budget")
struct DescriptorBudgetTests {
    @Test("T5: the configured limits are cut to the descriptors there are, with a reserve for root and controllers")
    func limitsFitTheDescriptors() {
        let defaults = DaemonLimits()
        let plenty = DescriptorBudget(limit: 524_288).connections(defaults)
        #expect(plenty == ConnectionBudget(total: 4096, reservedForPrivileged: 256, perUID: 1024))

        // systemd's default soft limit, never raised: one uid gets less than half.
        let tight = DescriptorBudget(limit: 1024).connections(defaults)
        #expect(tight.total == 1024 - DescriptorBudget.ownUse)
        #expect(tight.perUID * 2 <= tight.total - tight.reservedForPrivileged)
        #expect(tight.reservedForPrivileged >= 8)

        // A configured cap below what the descriptors allow stays as configured.
        var small = DaemonLimits()
        small.connections = 100
        small.connectionsPerUID = 10
        #expect(
            DescriptorBudget(limit: 1024).connections(small) == ConnectionBudget(total: 100, reservedForPrivileged: 8, perUID: 10)
        )

        // Hardly any descriptors: still one connection, and it is root's.
        let starved = DescriptorBudget(limit: 16).connections(defaults)
        #expect(starved == ConnectionBudget(total: 1, reservedForPrivileged: 0, perUID: 1))
    }
}
