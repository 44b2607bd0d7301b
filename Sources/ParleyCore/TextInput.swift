/// Text that reaches Parley as bytes: standard input, a pipe.
public enum TextInput {
    /// What to do about input that is not UTF-8 text, ending every sentence that refuses it.
    public static let conversionHint = "convert it to UTF-8 first (for example iconv -f LATIN1 -t UTF-8)"
}
