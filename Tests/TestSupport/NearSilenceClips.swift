/// eSpeak NG Spanish clips near Whisper's silence rule in the short window, for the tests of
/// the full window's second opinion: (voice, words a minute, text).
///
/// Each is heard or called silent by a margin of 0.02–0.2 in no-speech probability or mean
/// log-probability, and processors move those numbers by up to 0.17 (CTranslate2's AVX, AVX2
/// and AVX-512 kernels, compared on one machine with `CT2_FORCE_CPU_ISA`). So no single clip
/// may decide a test: the tests check the rules on every clip, whichever way it falls, and
/// need the second opinion to have heard a few of them. With AVX-512 kernels, `parley listen`
/// heard 5 of the 9 only through the second opinion.
public enum NearSilenceClips {
    public static let clips: [(voice: String, speed: Int, text: String)] = [
        ("es+f4", 160, "¿me da una bolsa, por favor?"), ("es+f4", 190, "¿me da una bolsa, por favor?"),
        ("es+f2", 160, "¿me da una bolsa, por favor?"), ("es+m1", 160, "hasta mañana"),
        ("es-419+m3", 160, "hasta mañana"), ("es+m1", 190, "la cuenta, por favor"),
        ("es+f3", 190, "la cuenta, por favor"), ("es+m1", 160, "la cuenta, por favor"),
        ("es+f4", 160, "la cuenta, por favor"),
    ]
}
