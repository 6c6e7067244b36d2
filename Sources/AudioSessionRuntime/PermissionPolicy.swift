/// Who answers record-permission prompts (SPEC P2) when no one else does.
public enum PermissionPolicy: String, Hashable, Sendable, CaseIterable {
    /// Prompts go to connected system controllers (`audiosession system answer APP grant`);
    /// with none connected the permission stays undetermined until one answers.
    case ask
    /// Every prompt is granted at once (an unattended development machine).
    case grant
    /// Every prompt is denied at once.
    case deny
}
