"""How a rules question's words are read (issue #76): its words, the small ones of each language
left out, what two or three words say together said as one (:data:`PHRASES`), a dialect's words
as the Italian they stand for (:data:`STANDS_FOR`), each word stemmed in its language (Snowball's
stemmers, PyStemmer) and tagged with it (``en:fire``), and the words a player uses for one thing
(:data:`SAME`). The map's texts are read the same way (``core.explain.rulesearch``), so a question and a
rule meet on the same stems."""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import Any

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_MEASURE = re.compile(r"(\d+)(cm|mm|m|km|in|inch|inches|ft)")

#: The small words of each language: left out of the index, and what tells a question's language.
_EN_SMALL = """
a an the of to in on at by for from with without and or but not no is are was were be been being do does
did can could may might must shall should will would has have had i you he she it we they his her its their
my your our this that these those there what which who whom whose when where why how if then than as so any
each every one all some more most other such only own same also just into onto out up down over under again
about after before between through during rule rules happens happen get gets getting let lets mean means go
goes going gone went apply applies allowed allow need needs want wants actually really exactly still please kind
sort thing things way much many ever else anyone someone something haven hasn isn aren don doesn didn wouldn
couldn shouldn ca wo make makes made cannot me him us them myself yourself himself ourselves themselves
yours too very yes ok okay hey hi guys folks anyway like well even though while whether yet got now right
nobody anybody somebody everybody everyone knew ask asks asked asking dad daddy mum mummy mom mommy
"""
_IT_SMALL = """
il lo la i gli le un uno una di del dello della dei degli delle a al allo alla ai agli alle da dal dallo
dalla dai dagli dalle in nel nello nella nei negli nelle con col su sul sullo sulla sui sugli sulle per tra
fra e ed o od ma non né se che chi cui come quando dove perché quale quali quanto quanti quante è sono era
erano essere sia siano ha hanno avere può possono posso puo devo deve devono si mi ti ci vi ne lui lei loro
suo sua suoi sue mio mia miei mie tuo tua tuoi tue nostro nostra nostri nostre vostro vostra vostri vostre
questo questa questi queste quello quella quelli quelle c'è cosa succede anche più
ancora già ogni tutto tutta tutti tutte qualche altro altra altri altre stesso regola regole l un' dell nell all
dall sull invece fare faccio fa volta volte proprio davvero bisogna serve servono quanta qualcuno qualcosa
inizio dopo me te noi voi poi allora però pero quindi com
cioè cioe tipo ok okay ragazzi beh ecco bene molto poco troppo ho hai abbiamo avete fatto mo uè ue oh eh ah boh
capire capisco capisci capisce capiamo capito capita capitato
"""
STOPWORDS: dict[str, frozenset[str]] = {"en": frozenset(_EN_SMALL.split()), "it": frozenset(_IT_SMALL.split())}
_STEMMERS = {"en": "english", "it": "italian"}
#: Words that make one word together, each said as that one (Italian's "carro armato" is a tank,
#: no "armed" thing: its "armato" would find the rules of armed vehicles; its "corpo a corpo" is a
#: melee, one thing said in three words; English's "how close" asks a distance, not of close combat).
#: Each with what a text must hold for it to be looked for at all (a map's thousands of texts are
#: read once a process, and a plain "in" is many times quicker than a pattern's search).
PHRASES: dict[str, tuple[tuple[re.Pattern[str], str, str | tuple[str, ...]], ...]] = {
    "en": (
        (re.compile(r"\bhow (?:close|near)\b"), "how far", "how "),
        # who "goes first" takes the initiative: "go" is a small word, and "first" alone is anything's
        (re.compile(r"\b(?:go|goes|going|went|gone) first\b"), r"initiative \g<0>", " first"),
        # a vehicle that runs men over overruns them; a man who runs over to a wall moves
        (re.compile(r"\b(?:run|runs|running|ran) (?:\w+ )??over\b(?! to\b| there\b| \d)"), "overrun", "over"),
        # one who "gets out" (of a melee, a truck) exits it, one who "gets away" escapes: each word of
        # the two is a small word, and "can my guy get out of a melee?" was read as "melee" alone
        (re.compile(r"\b(?:get|gets|getting|got|gotten) out\b"), "exit", " out"),
        (re.compile(r"\b(?:get|gets|getting|got|gotten) away\b"), "escape", " away"),
        # a weapon fired "full auto" fires a burst (the rules' word)
        (re.compile(r"\b(?:full|fully)[ -]auto(?:matic)?\b"), "burst", "auto"),
        # a player who asks for the guns requests them; one who asks ("my daughter asks: …") asks
        (re.compile(r"\b(?:ask|asks|asked|asking) for\b"), "call for", " for"),
        # a vehicle that runs men down overruns them too; one that breaks down fails; a plane
        # shot down is downed (not a man who shoots down into a yard); a wall brought down falls
        (
            re.compile(
                r"\b(?:run|runs|running|ran) (?!back |all |straight |right )((?:\w+ ){1,2})down\b"
                r"|\b(?:run|runs|running|ran) down (?=him\b|them\b|(?:a|an|the|his|their|my|our|that|those|these) "
                r"(?:\w+ )?(?:man|men|insurgents?|enem(?:y|ies)|soldiers?|militia(?:man|men)?|infantry|guys?|"
                r"civilians?|fighters?|figures?|squad|team|troops|gunners?|crew)\b)"
            ),
            r"overrun \1",
            "down",
        ),
        (re.compile(r"\b(?:break|breaks|breaking|broke|broken) down\b"), "breakdown", "down"),
        (re.compile(r"\b(?:is|was|are|were|be|been|being|gets|got|get) shot down\b"), "shootdown", "shot down"),
        (
            re.compile(
                r"\b(?:bring|brings|bringing|brought|knock|knocks|knocking|knocked) "
                r"(?:\w+ ){0,4}?(?:wall|walls|house|building|roof|tower|bridge)(?: \w+){0,4}? down\b"
            ),
            "demolish",
            "down",
        ),
        # friends hit by their own side: a stray shot, no rule of sight through them
        (re.compile(r"\b(?:hit|hits|hitting) (?:my|our|his|her|their|your) own\b"), "fratricide", " own"),
        # two who roll the same number, or end on the same points, tie (and the number is still said)
        (
            re.compile(
                r"\b(?:rolled|roll|rolls|got|get|scored|score) the same\b"
                r"|\bthe same (?:(?:defeat|victory) )?(?:number|score|result|total|points|dp)\b"
            ),
            r"tie \g<0>",
            "same",
        ),
        # a vehicle's reactive or add-on armour is a thing of its own, no armour of the tables
        (re.compile(r"\b(?:reactive|explosive reactive|add-on|slat|cage) armou?r\b"), "reactivearmour", "armo"),
        # a British soldier who cops it is hit; a vehicle that brews up burns out
        (re.compile(r"\b(?:cop|cops|copped|copping) it\b"), "get hit", "cop"),
        (re.compile(r"\b(?:brew|brews|brewed|brewing) up\b"), "destroyed", "brew"),
        # a house that catches fire, or is set on fire, burns: no fire of weapons
        (re.compile(r"\b(?:catch|catches|catching|caught) fire\b|\bon fire\b"), "burn", "fire"),
        # a knife fight is a melee, whatever its blades
        (re.compile(r"\bknife[ -]?fight(?:s|ing)?\b"), "melee", "knife"),
        # what a man takes "from the dead" he takes from a body
        (re.compile(r"\b(?:from|off) (?:the|a|his|her|their|my|our|your) dead\b"), "from corpse", "dead"),
        # who frees a man the enemy took rescues him: no free action
        (
            re.compile(
                r"\b(?:free|frees|freed|freeing|set free) (?:the|a|my|our|his|her|their|that|this) (?:\w+ )?"
                r"(?:journalist|reporter|prisoner|prisoners|captive|captives|hostage|hostages|man|men)\b"
            ),
            r"rescue \g<0>",
            "free",
        ),
        # how many men a vehicle carries asks its seats: no rule of carrying a wounded man or a load
        (
            re.compile(
                r"\bhow many (?:men|soldiers|troops|troopers|figures|models|minis|guys|lads|passengers|people|"
                r"infantrymen|marines|militiamen|fighters|riflemen)\b(?= (?:\w+ ){0,4}?(?:carry|carries|carried|hold|"
                r"holds|fit|fits|ride|rides|transport|transports|lift|lifts|seat|seats|squeeze|cram|pile|board)\b)"
            ),
            r"capacity \g<0>",
            "how many",
        ),
    ),
    "it": (
        (re.compile(r"\b(carr[oi]) armat[oi]\b"), r"\1", "armat"),
        # who "goes first" takes the initiative, as in English ("chi va per primo", "chi muove prima")
        (
            re.compile(
                r"\b(?:va|vanno|andare|muove|muovono|muovere|parte|partono|partire|gioca|giocano|giocare|"
                r"attiva|attivano|agisce|agiscono|tocca) (?:per )?prim[oaie]\b"
            ),
            r"iniziativa \g<0>",
            "prim",
        ),
        (re.compile(r"\bcorpo a corpo\b"), "mischia", "corpo a corpo"),
        # a house that takes fire ("prende fuoco"), or that one sets fire to ("dà fuoco"), burns: no
        # fire of weapons (an open fire, "aprire il fuoco", keeps its article)
        (
            re.compile(r"\b(?:prend\w*|pres[oaie]) fuoco\b|\b(?:da|dà|dare|dar|danno|dato|diede) fuoco\b"),
            "incendio",
            "fuoco",
        ),
        # "a bordo" of a truck is aboard it, no edge: the "bordo" of a base, of the table
        (re.compile(r"\ba bordo\b"), "imbarcato", "a bordo"),
        # "in mezzo" is in the middle, a word of its own: no vehicle (a "mezzo")
        (re.compile(r"\b(?:in|nel) mezzo\b"), "inmezzo", "mezzo"),
        # two who roll the same number tie (and the number is still said)
        (
            re.compile(
                r"\b(?:stesso|medesimo) (?:numero|punteggio|risultato|totale)\b|\b(?:stessi|medesimi) (?:punti|ps)\b"
            ),
            r"parità \g<0>",
            ("stess", "medesim"),
        ),
        # a tank's reactive armour: no reacting player ("giocatore reattivo", Breaking News' Italian draft 6.5)
        (
            re.compile(r"\b(?:corazz[ae]|piastr[ae]|mattonell[ae]) (?:anti-?razzo )?reattiv[ae]\b"),
            "corazzareattiva",
            "reattiv",
        ),
        # who throws himself into a melee or an assault charges: no grenade thrown
        (
            re.compile(r"\b(?:lanciarsi|si lancia|si lanciano|lanciandosi) (?=in|nel|nella|all|contro|addosso)"),
            "caricare ",
            "lanci",
        ),
        # a building that collapses is demolished: no force's morale collapsing ("crollo")
        (
            re.compile(
                r"\b(?:edifici\w*|casa|case|palazz\w*|mur[oi]|tett[oi]|ponte|ponti|casolare|capanna|torre)\b"
                r"(?: (?!morale\b|squadr|forz)\S+){0,6}? (?:crolla\w*|crollo|croll[ai]no)\b"
            ),
            r"\g<0> demolire",
            "croll",
        ),
        # "piano piano" is slowly: no floor of a building
        (re.compile(r"\bpiano piano\b"), "lentamente", "piano piano"),
        # "quanti ci stanno" in a truck asks its seats (not "ci stiamo menando", a fight going on), as
        # "quanti soldati porta" does (not "porta in campo", a force's size); one hands another a
        # magazine to resupply him
        (
            re.compile(r"\b(?:ci|vi) (?:stanno|entrano|stiamo|entriamo|entra)\b(?! \w+(?:ando|endo)\b)"),
            "capienza",
            ("stanno", "entr", "stiamo"),
        ),
        (
            re.compile(
                r"\bquant[ie] (?:uomini|soldati|figure|miniature|passeggeri|fanti|militari|miliziani|persone|marines)\b"
                r"(?= (?:\w+ ){0,3}?(?:trasport\w*|(?:portare|porta|portano)(?! in campo| in tavolo| sul tavolo)|"
                r"caric\w*|imbarc\w*|contiene|contenere|a bordo|salire|salgono|sale)\b)"
            ),
            r"capienza \g<0>",
            "quant",
        ),
        (
            re.compile(r"\b(?:passare|passa|passo|dare|da|dà|do) (?:un|il|dei|delle|le|i) (?=caricator|munizion)"),
            "portamunizioni ",
            ("caricator", "munizion"),
        ),
    ),
}
#: Words each read as the word of the language it stands for. In Italian, the dialects Italian
#: players write in (Roman, Neapolitan, Sicilian): "'o suldato è muorto?" is "il soldato è morto?";
#: only words a map would hold or a question's small words, none that is an Italian word of its own
#: ("sto" and "sta" are Rome's "this" and Italian's "I am", "core" a heart: only the accented "còre"
#: is running). In English, a British soldier's: "the wagon" is a vehicle, no railway's; men "debus".
_DIALECT: dict[str, str] = {
    # Roman
    "er": "il", "der": "del", "omo": "uomo", "òmo": "uomo", "pò": "può", "còre": "correre",
    "córe": "correre", "pe": "per", "ste": "queste", "sti": "questi",
    # Neapolitan
    "aggio": "ho", "agg": "ho", "pigliato": "preso", "pigliati": "presi", "pigliata": "presa", "piglia": "prende",
    "pigliare": "prendere", "pigliano": "prendono", "muorto": "morto", "muorti": "morti", "fernesce": "finisce",
    "fernisce": "finisce", "perzo": "perso", "nun": "non", "suldato": "soldato", "suldati": "soldati",
    "surdato": "soldato", "guaglione": "ragazzo", "guagliune": "ragazzi", "comme": "come", "quanno": "quando",
    "steva": "stava", "stevano": "stavano", "nmiezo": "inmezzo", "miezo": "mezzo", "lloro": "loro", "dduje": "due",
    "duje": "due", "ata": "altra", "ati": "altri", "chillo": "quello", "chisto": "questo", "tené": "tenere",
    "sparà": "sparare", "tirà": "tirare", "fà": "fare", "murì": "morire", "vedè": "vedere", "ommo": "uomo",
    "ommini": "uomini", "nemmico": "nemico", "nemmici": "nemici",
    # Sicilian
    "picciotto": "ragazzo", "picciotti": "ragazzi", "cchiù": "più", "chiù": "più", "unni": "dove", "nenti": "niente",
    "iddu": "lui", "iddi": "loro", "sparari": "sparare", "fari": "fare", "sugnu": "sono", "semu": "siamo",
    "macari": "anche", "talìa": "guarda", "muriri": "morire", "curriri": "correre", "vidiri": "vedere",
}  # fmt: skip
_SOLDIERS: dict[str, str] = {
    "wagon": "vehicle", "wagons": "vehicles", "debus": "dismount", "debuses": "dismounts", "debussing": "dismounting",
    "debussed": "dismounted", "embus": "mount", "embussing": "mounting", "embussed": "mounted", "stonk": "bombardment",
    "stonked": "bombarded",
}  # fmt: skip
STANDS_FOR: dict[str, dict[str, str]] = {"it": _DIALECT, "en": _SOLDIERS}
_STANDS_FOR = {
    language: re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, table), key=len, reverse=True)) + r")\b")
    for language, table in STANDS_FOR.items()
}
#: Words told by their capitals, read before the case is dropped: an initialism's plural is the
#: initialism ("IEDs" an IED: a stemmer reads "ieds" as a verb's "-ied", "RPGs" as a word of its own);
#: a wargamer's "HE" is high explosive, not the small word "he" (unless the whole question is
#: shouted in capitals).
_PLURAL = (re.compile(r"\b([A-Z]{2,5})s\b"), r"\1")
CASED: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "en": (_PLURAL, (re.compile(r"\bHE\b"), "explosive")),
    "it": (_PLURAL,),
}
#: Words a player uses for one thing, in each language (a soldier is a man, a figure, a model):
#: each brings in the others at :data:`ALIKE`.
SAME: dict[str, tuple[str, ...]] = {
    "en": (
        "fire shoot shot shooting firing",
        "man soldier figure model trooper infantryman guy bloke dude lad grunt",
        "long last lasts duration",
        "immediately instantly",
        "win wins won winner",
        "simultaneous moment",
        "group bunch several together",
        "retreat withdraw flee",
        "leave disengage escape",
        "double twice",
        "attack assault charge",
        "tank vehicle",
        "see spot spotting sight sighting observe observation visible",
        "leader commander officer NCO sergeant",
        "melee close combat fight",
        "suppressed pinned",
        "run sprint running",
        "move moving movement",
        "wounded wound injured",
        "killed dead death dies",
        "dice die",
        "tie draw equal",
        "draw drew drawn",
        "driver pilot",
        "hidden concealed unseen unspotted",
        "enemy opponent foe",
        "ammunition ammo magazine mag mags",
        "cost price",
        "test check",
        "range distance far",
        "grenade blast",
        "end over finish",
        "call request ask",
        "penalty modifier malus minus",
        "bonus help plus",
        "number value",
        "aircraft plane airplane jet",
        "deploy deployment setup",
        "artillery arty",
        "explosive he",
        "machine mg",
        "zero 0",
        "one 1",
        "two 2",
        "three 3",
        "four 4",
        "five 5",
        "six 6",
        # the weapons and machines players name by their make or nickname
        "grenade frag pineapple potato masher stielhandgranate",
        "tank panzer tiger panther sherman leopard abrams ariete",
        "rpg bazooka panzerfaust panzerschreck piat javelin launcher",
        "machine mg42 mg34 bren browning m60 pkm minimi spandau",
        "rifle ak ak47 kalashnikov m16 m4 fal garand mauser enfield mosin carbine",
        "smg submachine thompson tommy mp40 sten uzi mp5 ppsh",
        "sniper marksman sharpshooter",
        "pistol handgun sidearm",
        "helicopter chopper huey gunship heli hind apache blackhawk",
        "aa antiaircraft manpads stinger strela flak",
        "opportunity overwatch",
        "medic corpsman doc",
    ),
    "it": (
        "sparare spara tiro fuoco colpo",
        "uomo soldato figura modello fante omino tizio ragazzo",
        "durare dura durata resta rimane",
        "subito immediatamente",
        "simultaneo momento contemporaneo",
        "gruppo insieme diversi",
        "ritirata ritirarsi arretrare fuggire scappare",
        "lasciare abbandonare sganciarsi uscire",
        "doppio raddoppia",
        "carro veicolo mezzo",
        "vedere avvistare avvistamento osservare osservazione visibile vista",
        "attacco attaccare assalto assaltare",
        "capo caposquadra comandante ufficiale sottufficiale",
        "mischia corpo",
        "soppresso inchiodato",
        "correre corsa",
        "muovere movimento muoversi mosso spostarsi spostamento",
        "ferito ferita",
        "ucciso morto morire muore ammazzato ammazzare ammazzano",
        "autista pilota conducente",
        "nascosto nascosti invisibile",
        "nemico avversario",
        "parità pari uguale pareggio",
        "munizioni caricatore",
        "costo costa costare prezzo",
        "prova test",
        "distanza gittata lontano",
        "granata esplosione",
        "fine finisce termina",
        "chiamare chiedere richiedere",
        "penalità malus modificatore meno",
        "bonus aiuto",
        "numero valore",
        "aereo aerei velivolo",
        "insieme simultaneo contemporaneamente",
        "centimetri cm",
        "dadi dado",
        "prima primo",
        "uno 1",
        "due 2",
        "tre 3",
        "quattro 4",
        "cinque 5",
        "sei 6",
        # le armi e i mezzi che i giocatori chiamano per marca o soprannome
        "granata bomba ananas",
        "carro panzer tiger panther sherman leopard abrams ariete",
        "lanciarazzi rpg bazooka panzerfaust panzerschreck",
        "mitragliatrice mitragliatrici mg42 mg34 bren browning m60 pkm minimi",
        "fucile ak ak47 kalashnikov m16 m4 fal garand mauser moschetto carabina",
        "mitra mitraglietta thompson mp40 sten uzi mp5",
        "cecchino tiratore",
        "pistola pistole",
        "elicottero elicotteri hind apache blackhawk",
        "contraerea antiaerea manpads stinger strela flak",
        "medico infermiere portaferiti",
        "riparo protezione protetto protegge proteggere riparato",
        "pallottola pallottole proiettile proiettili",
    ),
}


@cache
def _stemmer(language: str) -> Any:
    import Stemmer  # imported when first asked: a client that asks nothing does not load its stemmers

    return Stemmer.Stemmer(_STEMMERS[language])


def fold(word: str) -> str:
    if word.isascii():  # most words: no accent to take off
        return word
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


#: The small words as compared: without accents (``puo`` is ``può``).
SMALL = {language: frozenset(map(fold, small)) for language, small in STOPWORDS.items()}


def words(text: str) -> list[str]:
    """``text``'s words, lower case, an elision split off (``l'arma``: ``arma``), a measure
    typed as one word said as two (``5cm``: ``5``, ``cm``)."""
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        if "'" not in w and "’" not in w:  # most words (and a quicker way for the thousands of a map)
            if measured := _MEASURE.fullmatch(w):
                out.extend(measured.groups())
            elif len(w) > 1 or w.isdigit():
                out.append(w)
            continue
        # English's "haven't", "man's", "they're" are their first part; Italian's "l'arma" its second
        out.extend(p for p in re.split(r"['’]", w.replace("n't", "").replace("n’t", "")) if len(p) > 1 or p.isdigit())
    return out


def stems(text: str, language: str) -> list[str]:
    """``text``'s words but the small ones, stemmed in ``language``, each tagged with it
    (``en:fire``), accents left out after stemming (a keyboard without them finds the same)."""
    return stems_of(words(phrased(text, language)), language)


def stems_of(said: list[str], language: str) -> list[str]:
    stop = SMALL[language]
    return [stem(language, w) for w in said if fold(w) not in stop]


def phrased(text: str, language: str) -> str:
    """``text`` in lower case, each of :data:`STANDS_FOR` said as the word it stands for, and each
    of :data:`PHRASES` (and of :data:`CASED`) said as its one word."""
    for cased, word in () if text.isupper() else CASED[language]:
        text = cased.sub(word, text)
    text = text.lower()
    stands_for = STANDS_FOR[language]
    text = _STANDS_FOR[language].sub(lambda m: stands_for[m.group()], text)
    for phrase, word, needs in PHRASES[language]:
        if (needs in text) if isinstance(needs, str) else any(n in text for n in needs):
            text = phrase.sub(word, text)
    return text


@lru_cache(maxsize=65_536)
def stem(language: str, word: str) -> str:
    """One word's tagged stem, kept (a word is stemmed once a process: a map says its words many times)."""
    return f"{language}:{fold(_stemmer(language).stemWord(word))}"


@cache
def alike_table() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for language, groups in SAME.items():
        for group in groups:
            found = {stem(language, w.lower()) for w in group.split()}
            for term in found:
                table.setdefault(term, set()).update(found - {term})
    return {term: frozenset(others) for term, others in table.items()}


def alike(term: str) -> frozenset[str]:
    return alike_table().get(term, frozenset())


def language_of(question: str) -> str | None:
    """``it`` or ``en`` by the small words of each that ``question`` holds; None when they tie."""
    said = [fold(w) for w in words(question)]
    counts = {language: sum(w in small for w in said) for language, small in SMALL.items()}
    if counts["it"] == counts["en"]:
        return None
    return "it" if counts["it"] > counts["en"] else "en"
