import QuickActionsProviding

/// The controls' titles and their translations, keyed as the Desktop Entry Specification
/// keys languages. A small table in code: four words do not need a catalogue, and a
/// translation added here reaches every bridge (the broker resolves the caller's locale).
/// The words are the ones GNOME's and KDE's media controls use in each language.
enum MediaControlTitles {
    static let table: [MediaControl: LocalizedText] = [
        .play: LocalizedText("Play", translations: [
            "de": "Abspielen", "fr": "Lecture", "es": "Reproducir", "it": "Riproduci", "pt": "Reproduzir",
            "nl": "Afspelen",
        ]),
        .pause: LocalizedText("Pause", translations: [
            "de": "Pausieren", "fr": "Pause", "es": "Pausar", "it": "Pausa", "pt": "Pausar", "nl": "Pauzeren",
        ]),
        .next: LocalizedText("Next", translations: [
            "de": "Nächster Titel", "fr": "Suivant", "es": "Siguiente", "it": "Successivo", "pt": "Seguinte",
            "nl": "Volgende",
        ]),
        .previous: LocalizedText("Previous", translations: [
            "de": "Vorheriger Titel", "fr": "Précédent", "es": "Anterior", "it": "Precedente", "pt": "Anterior",
            "nl": "Vorige",
        ]),
    ]

    static func title(of control: MediaControl) -> LocalizedText {
        table[control] ?? LocalizedText(control.method.rawValue)
    }
}
