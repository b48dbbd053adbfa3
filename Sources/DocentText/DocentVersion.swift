/// The version both programs print with `--version` (`docent`, `docent-pulse`).
public enum DocentVersion {
    public static let string = "0.4.0"
}
