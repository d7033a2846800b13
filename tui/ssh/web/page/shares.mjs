// This seat's shares of the dice, as both pages draw, keep and check them (fireteam.mjs, plain.mjs;
// docs/secrets.md, "Sealed dice" and "The player's own check of his dice").
//
// Before each line entered the page sends its share of the command's dice: 16 random bytes, the seal of
// the key it was told is in force, the seat's count of its shares it was told comes next and the digest
// of the keys it is for.  The bytes are drawn once for each seal and count and sent again with every line
// until the count moves on (a command of the seat rolled them): a proxy that drops a line and its share,
// so that the player types the line again, gets the same bytes again, never a fresh draw to choose from.
// What the page sent is kept in this browser (localStorage["fireteam-dice"], the last KEPT_SHARES, as
// [time, contribution, seal, count, keys, seat]); the "My dice record" button downloads it for
// `fireteam verify SAVE --side-copy RECORD`.  After each command of the seat's that rolled a share the page
// forwarded, the server tells the page what the roll used (["rolled", {count, seal, contribution, faces}]),
// and the page says beside it whether that is the share it sent; a line that reached the door without its
// share is refused there, and the page is told so (["unshared", null]).  The server is the host's: what it tells
// can be checked only against the save; the record is what binds the host.

const KEPT_SHARES = 500;
const STORE = "fireteam-dice";
const HEX32 = /^[0-9a-f]{32}$/;
const SEAL = /^([0-9a-f]{64})?$/;

function load() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "[]");
    // (a page from before kept five fields, and no seat: such a share names nobody, and is never reused)
    return Array.isArray(kept) ? kept.filter(Array.isArray).map((e) => [...e.slice(0, 5), e[5] || ""]) : [];
  } catch (e) {
    return []; // no storage here (a private window, a full quota): kept in this page only
  }
}

export class Shares {
  // words: the page's words (door.py's _words); said(text, alarm): shows a roll's check beside the game.
  constructor(words, said) {
    this.words = words;
    this.said = said;
    this.seal = null; // not told yet
    this.count = null;
    this.seat = null;
    this.kept = load();
    this.alarmed = false;
  }

  // ["seal", DIGEST], ["count", N], ["seat", NAME] from the server; true if it was one of them.
  told(kind, value) {
    if (kind === "seal" && typeof value === "string" && SEAL.test(value)) this.seal = value;
    else if (kind === "count" && Number.isSafeInteger(value) && value > 0) this.count = value;
    else if (kind === "seat" && typeof value === "string" && value.length <= 64) this.seat = value;
    else if (kind === "rolled") this.rolled(value);
    else if (kind === "unshared") this.unshared();
    else return false;
    return true;
  }

  // The share to send before a line whose keys hash to `keys`: "HEX SEAL COUNT KEYS", or null until the
  // page was told the seal, the count and its seat (the table then draws the command's share).
  drawn(keys) {
    if (this.seal === null || this.count === null || this.seat === null) return null;
    let entry = this.kept.find((e) => e[5] === this.seat && e[2] === this.seal && e[3] === this.count);
    if (!entry) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      const mine = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      entry = [new Date().toISOString(), mine, this.seal, this.count, keys, this.seat];
      this.kept = [...this.kept, entry].slice(-KEPT_SHARES);
    }
    entry[4] = keys; // the last line it went with
    try {
      localStorage.setItem(STORE, JSON.stringify(this.kept));
    } catch (e) {
      // no storage here: the share still goes, and this page still checks its rolls
    }
    return `${entry[1]} ${this.seal} ${this.count} ${keys}`;
  }

  // What the table says a roll of this seat's used: the page's share for that seal and count, or not.
  rolled(value) {
    if (!value || typeof value !== "object") return;
    const { count, seal, contribution, faces } = value;
    if (!Number.isSafeInteger(count) || typeof seal !== "string" || !SEAL.test(seal)) return;
    if (typeof contribution !== "string" || !HEX32.test(contribution) || !Array.isArray(faces)) return;
    const shown = faces.filter(Number.isSafeInteger).slice(0, 100).join(" ");
    const sent = this.kept.find((e) => e[5] === this.seat && e[2] === seal && e[3] === count);
    const kind = !sent ? "dice_none" : sent[1] === contribution ? "dice_ok" : "dice_other";
    const text = this.words[kind].replace("{faces}", shown).replace("{count}", String(count));
    if (kind !== "dice_ok") this.alarmed = true;
    else if (this.alarmed) return; // a roll that did not use the page's share stays said
    this.said(text, kind !== "dice_ok");
  }

  // The door refused a line of the page's that came without the share the page sent with it.
  unshared() {
    this.alarmed = true;
    this.said(this.words.dice_dropped, true);
  }

  // The record as a file of the player's: what `fireteam verify SAVE --side-copy RECORD` reads.
  download() {
    const record = { fireteam_shares: 1, page: location.origin, shares: this.kept };
    const blob = new Blob([JSON.stringify(record)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `fireteam-dice-${(this.seat || "seat").replace(/[^A-Za-z0-9_-]/g, "_")}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }
}
