// Interface text in English, Bulgarian and Armenian. t(key, params) fills {name} slots;
// a key missing in bg/hy falls back to English, a key missing everywhere shows itself.
// One mechanism adds text: addStrings({en: {...}, bg: {...}, hy: {...}}). The tables below are
// the shared screens'; i18n_*.js add theirs when loaded, each game's view module
// (js/games/<game>.js) its own, and the catalog (js/catalog.js) the games' display names.

const en = {
  "nav.lobby": "Lobby", "nav.games": "Finished games", "nav.language": "Language", "nav.menu": "Menu",
  "me.as": "Playing as {name}", "me.change": "change name",
  "lobby.title": "Lobby", "lobby.name": "Your name", "lobby.enter": "Enter",
  "lobby.name_hint": "Choose a name to play (a guest identity kept in this browser).",
  "lobby.tables": "Live tables", "lobby.none": "No live tables. Create one below.",
  "lobby.refresh": "Refresh", "lobby.more": "More tables", "lobby.create": "Create a table", "lobby.game": "Game",
  "lobby.seats": "Seats", "lobby.seat_n": "Seat {n}", "lobby.you": "you",
  "lobby.human": "a person", "lobby.bot_random": "random bot", "lobby.bot_rule": "rule bot",
  "lobby.target": "Target score", "lobby.stack": "Starting stack", "lobby.ante": "Ante",
  "lobby.min_bet": "Minimum bet", "lobby.small_bet": "Small bet", "lobby.big_bet": "Big bet",
  "lobby.structure": "Betting", "lobby.limit": "limit", "lobby.no_limit": "no limit",
  "lobby.timeout": "Turn time (seconds)", "lobby.create_btn": "Create and sit",
  "lobby.quick": "Quick seat", "lobby.join": "Sit", "lobby.watch": "Watch", "lobby.tournament": "{name}: round {round}, board {board}",
  "lobby.free": "free", "lobby.back": "Back to your seat",
  "status.waiting": "waiting", "status.playing": "playing", "status.between_hands": "between hands",
  "status.finished": "finished", "status.closed": "closed",
  "table.hand": "Hand {n}", "table.you": "you", "table.spectating": "Watching",
  "table.waiting": "Waiting for players ({taken}/{n})…", "table.your_turn": "Your turn", "table.out_of_turn": "you may act out of turn",
  "table.turn_of": "{name} to act", "table.leave": "Leave table", "table.log": "Table log",
  "table.reconnecting": "Connection lost, reconnecting…",
  "table.restarting": "The server is restarting or the table is moving to another server — your seat is kept; reconnecting…",
  "table.restarting_watch": "The server is restarting or the table is moving to another server — reconnecting…", "table.bot": "bot",
  "table.offline": "offline", "table.dealer": "dealer", "table.closed": "The table was closed.",
  "table.summary": "Result", "table.close": "Close", "table.not_found": "No such table.",
  "table.no_actions": "Nothing to do right now.", "table.chips": "{n} chips",
  "table.out_of_hand": "not in this hand", "table.finished": "The match is over.",
  "ev.timeout": "Timeout: {text}", "ev.game_started": "Hand {n} begins; {name} deals.",
  "ev.unknown": "{name}: {kind}", "ev.hand_begins": "Hand {n} begins.",
  "act.pass": "Pass", "act.contra": "Contra", "act.recontra": "Recontra", "act.kapot": "Kapot",
  "act.bid": "Bid", "act.play": "Play", "act.check": "Check", "act.call": "Call",
  "act.raise": "Raise", "act.fold": "Fold", "act.bet": "Bet", "act.exchange": "Exchange",
  "act.buy": "Buy", "act.discard": "Discard", "act.stay": "Stay", "act.battle": "Battle",
  "act.to": "to {n}", "act.confirm": "{label} ({k} chosen)", "act.declare": "Declare",
  "act.battle_vs": "Battle {name}", "act.extra": "extra", "act.by": "by",
  "pick.hint": "Choose {min}–{max} cards, then confirm.",
};

const bg = {
  "nav.lobby": "Лоби", "nav.games": "Изиграни игри", "nav.language": "Език", "nav.menu": "Меню",
  "me.as": "Играете като {name}", "me.change": "смяна на името",
  "lobby.title": "Лоби", "lobby.name": "Вашето име", "lobby.enter": "Влез",
  "lobby.name_hint": "Изберете име, за да играете (гост, запомнен в този браузър).",
  "lobby.tables": "Активни маси", "lobby.none": "Няма активни маси. Създайте една по-долу.",
  "lobby.refresh": "Обнови", "lobby.more": "Още маси", "lobby.create": "Нова маса", "lobby.game": "Игра",
  "lobby.seats": "Места", "lobby.seat_n": "Място {n}", "lobby.you": "вие",
  "lobby.human": "човек", "lobby.bot_random": "случаен бот", "lobby.bot_rule": "бот с правила",
  "lobby.target": "Игра до", "lobby.stack": "Начални чипове", "lobby.ante": "Анте",
  "lobby.min_bet": "Минимален залог", "lobby.small_bet": "Малък залог", "lobby.big_bet": "Голям залог",
  "lobby.structure": "Залагане", "lobby.limit": "с лимит", "lobby.no_limit": "без лимит",
  "lobby.timeout": "Време за ход (секунди)", "lobby.create_btn": "Създай и седни",
  "lobby.quick": "Бързо място", "lobby.join": "Седни", "lobby.watch": "Гледай", "lobby.tournament": "{name}: кръг {round}, раздаване {board}",
  "lobby.free": "свободно", "lobby.back": "Обратно към мястото ви",
  "status.waiting": "чака", "status.playing": "играе се", "status.between_hands": "между ръцете",
  "status.finished": "приключила", "status.closed": "затворена",
  "table.hand": "Ръка {n}", "table.you": "вие", "table.spectating": "Наблюдавате",
  "table.waiting": "Чакаме играчи ({taken}/{n})…", "table.your_turn": "Ваш ход", "table.out_of_turn": "можете да действате извън ред",
  "table.turn_of": "На ход е {name}", "table.leave": "Напусни масата", "table.log": "Дневник",
  "table.reconnecting": "Връзката прекъсна, свързваме се отново…",
  "table.restarting": "Сървърът се рестартира или масата се премества на друг сървър — мястото ви е запазено; свързваме се отново…",
  "table.restarting_watch": "Сървърът се рестартира или масата се премества на друг сървър — свързваме се отново…", "table.bot": "бот",
  "table.offline": "извън линия", "table.dealer": "раздава", "table.closed": "Масата беше затворена.",
  "table.summary": "Резултат", "table.close": "Затвори", "table.not_found": "Няма такава маса.",
  "table.no_actions": "Сега нямате ход.", "table.chips": "{n} чипа",
  "table.out_of_hand": "не е в тази ръка", "table.finished": "Играта приключи.",
  "ev.timeout": "Изтече времето: {text}", "ev.game_started": "Ръка {n} започва; раздава {name}.", "ev.hand_begins": "Ръка {n} започва.",
  "act.pass": "Пас", "act.contra": "Контра", "act.recontra": "Реконтра", "act.kapot": "Капо",
  "act.bid": "Обяви", "act.play": "Играй", "act.check": "Чек", "act.call": "Плати",
  "act.raise": "Вдигни", "act.fold": "Откажи се", "act.bet": "Заложи", "act.exchange": "Смени",
  "act.buy": "Купи", "act.discard": "Изхвърли", "act.stay": "Остани", "act.battle": "Битка",
  "act.to": "до {n}", "act.confirm": "{label} ({k} избрани)", "act.declare": "Обяви",
  "act.battle_vs": "Битка с {name}", "act.extra": "допълнително", "act.by": "с",
  "pick.hint": "Изберете {min}–{max} карти и потвърдете.",
};

const hy = {
  "nav.lobby": "Սրահ", "nav.games": "Ավարտված խաղեր", "nav.language": "Լեզու", "nav.menu": "Ընտրացանկ",
  "me.as": "Խաղում եք որպես {name}", "me.change": "փոխել անունը",
  "lobby.title": "Սրահ", "lobby.name": "Ձեր անունը", "lobby.enter": "Մուտք",
  "lobby.name_hint": "Ընտրեք անուն խաղալու համար (հյուր, որը պահվում է այս դիտարկիչում)։",
  "lobby.tables": "Ակտիվ սեղաններ", "lobby.none": "Ակտիվ սեղաններ չկան։ Ստեղծեք մեկը ներքևում։",
  "lobby.refresh": "Թարմացնել", "lobby.more": "Այլ սեղաններ", "lobby.create": "Նոր սեղան", "lobby.game": "Խաղ",
  "lobby.seats": "Տեղեր", "lobby.seat_n": "Տեղ {n}", "lobby.you": "դուք",
  "lobby.human": "մարդ", "lobby.bot_random": "պատահական բոտ", "lobby.bot_rule": "կանոնավոր բոտ",
  "lobby.target": "Խաղ մինչև", "lobby.stack": "Սկզբնական ժետոններ", "lobby.ante": "Անտե",
  "lobby.min_bet": "Նվազագույն խաղադրույք", "lobby.small_bet": "Փոքր խաղադրույք", "lobby.big_bet": "Մեծ խաղադրույք",
  "lobby.structure": "Խաղադրույքներ", "lobby.limit": "սահմանափակ", "lobby.no_limit": "անսահմանափակ",
  "lobby.timeout": "Քայլի ժամանակը (վայրկյան)", "lobby.create_btn": "Ստեղծել և նստել",
  "lobby.quick": "Արագ տեղ", "lobby.join": "Նստել", "lobby.watch": "Դիտել", "lobby.tournament": "{name}: փուլ {round}, խաղաթուղթ {board}",
  "lobby.free": "ազատ", "lobby.back": "Վերադառնալ ձեր տեղը",
  "status.waiting": "սպասում է", "status.playing": "խաղ է ընթանում", "status.between_hands": "ձեռքերի միջև",
  "status.finished": "ավարտված", "status.closed": "փակված",
  "table.hand": "Ձեռք {n}", "table.you": "դուք", "table.spectating": "Դիտում եք",
  "table.waiting": "Սպասում ենք խաղացողների ({taken}/{n})…", "table.your_turn": "Ձեր քայլն է", "table.out_of_turn": "կարող եք գործել հերթից դուրս",
  "table.turn_of": "Քայլում է {name}", "table.leave": "Լքել սեղանը", "table.log": "Մատյան",
  "table.reconnecting": "Կապը կորավ, վերամիանում ենք…",
  "table.restarting": "Սերվերը վերագործարկվում է կամ սեղանը տեղափոխվում է այլ սերվեր — ձեր տեղը պահպանված է, վերամիանում ենք…",
  "table.restarting_watch": "Սերվերը վերագործարկվում է կամ սեղանը տեղափոխվում է այլ սերվեր — վերամիանում ենք…", "table.bot": "բոտ",
  "table.offline": "անցանց", "table.dealer": "բաժանող", "table.closed": "Սեղանը փակվեց։",
  "table.summary": "Արդյունք", "table.close": "Փակել", "table.not_found": "Նման սեղան չկա։",
  "table.no_actions": "Հիմա անելիք չկա։", "table.chips": "{n} ժետոն",
  "table.out_of_hand": "այս ձեռքում չէ", "table.finished": "Խաղն ավարտվեց։",
  "ev.timeout": "Ժամանակն սպառվեց․ {text}", "ev.game_started": "Սկսվում է ձեռք {n}; բաժանում է {name}։", "ev.hand_begins": "Սկսվում է ձեռք {n}։",
  "act.pass": "Պաս", "act.contra": "Կոնտրա", "act.recontra": "Ռեկոնտրա", "act.kapot": "Կապոտ",
  "act.bid": "Հայտ", "act.play": "Խաղալ", "act.check": "Չեք", "act.call": "Վճարել",
  "act.raise": "Բարձրացնել", "act.fold": "Հրաժարվել", "act.bet": "Դնել", "act.exchange": "Փոխել",
  "act.buy": "Գնել", "act.discard": "Դեն նետել", "act.stay": "Մնալ", "act.battle": "Ճակատամարտ",
  "act.to": "մինչև {n}", "act.confirm": "{label} ({k} ընտրված)", "act.declare": "Հայտարարել",
  "act.battle_vs": "Ճակատամարտ {name}-ի դեմ", "act.extra": "հավելյալ", "act.by": "չափով",
  "pick.hint": "Ընտրեք {min}–{max} քարտ և հաստատեք։",
};

// Replay page strings (kept apart so the three tables above stay in step).
Object.assign(en, {
  "games.title": "Finished games", "games.none": "No finished games yet.", "games.replay": "Replay",
  "games.players": "Players", "games.ended": "Ended", "games.more": "More",
  "replay.title": "Replay", "replay.seat": "Seen from", "replay.spectator": "spectator",
  "replay.table_copy": "As the table saw it: cards nobody was shown stay face down.",
  "replay.step": "Step {k} of {n}", "replay.first": "First", "replay.prev": "Back",
  "replay.next": "Next", "replay.last": "Last", "replay.play": "Play", "replay.pause": "Pause",
  "replay.chance": "Dealer (chance)", "replay.start": "Before the first action",
  "games.verify": "Verify deals", "games.verify_hint": "Recompute every deal from the revealed seeds",
});
Object.assign(bg, {
  "games.title": "Изиграни игри", "games.none": "Още няма изиграни игри.", "games.replay": "Преглед",
  "games.players": "Играчи", "games.ended": "Край", "games.more": "Още",
  "replay.title": "Преглед", "replay.seat": "От гледна точка на", "replay.spectator": "зрител",
  "replay.table_copy": "Както масата я видя: картите, които никой не видя, остават с гърба нагоре.",
  "replay.step": "Стъпка {k} от {n}", "replay.first": "Начало", "replay.prev": "Назад",
  "replay.next": "Напред", "replay.last": "Край", "replay.play": "Пусни", "replay.pause": "Пауза",
  "replay.chance": "Раздаване (случайност)", "replay.start": "Преди първия ход",
  "games.verify": "Провери раздаването", "games.verify_hint": "Изчисли отново всяко раздаване от разкритите семена",
});
Object.assign(hy, {
  "games.title": "Ավարտված խաղեր", "games.none": "Ավարտված խաղեր դեռ չկան։", "games.replay": "Դիտել կրկին",
  "games.players": "Խաղացողներ", "games.ended": "Ավարտ", "games.more": "Ավելին",
  "replay.title": "Կրկնություն", "replay.seat": "Տեսանկյուն", "replay.spectator": "դիտորդ",
  "replay.table_copy": "Ինչպես սեղանը տեսավ. ոչ մեկին չցուցադրված խաղաթղթերը մնում են շրջված։",
  "replay.step": "Քայլ {k}՝ {n}-ից", "replay.first": "Սկիզբ", "replay.prev": "Հետ",
  "replay.next": "Առաջ", "replay.last": "Վերջ", "replay.play": "Նվագարկել", "replay.pause": "Դադար",
  "replay.chance": "Բաժանում (պատահականություն)", "replay.start": "Առաջին քայլից առաջ",
  "games.verify": "Ստուգել բաժանումը", "games.verify_hint": "Վերահաշվել յուրաքանչյուր բաժանում բացահայտված սերմերից",
});


// Table states, outcome reasons of every game, and singular/plural pairs (key.one / key.other,
// picked by tn(); in all three languages "one" is exactly 1).
Object.assign(en, {
  "table.deal": "Deal {n}", "table.next_hand": "Next hand soon…",
  "table.out_of_chips": "You are out of chips.", "table.back_to_lobby": "Back to the lobby",
  "table.waiting_chips": "Waiting for players with chips ({k}/{n} have chips)…",
  "table.joined_mid_hand": "Joined mid-hand; earlier events are not shown.",
  "reason.showdown": "showdown", "reason.uncontested": "everyone else folded",
  "reason.last_player": "the only player left", "reason.same_banner_split": "the players left share one banner suit; the pot is split",
  "reason.battle_split": "the last two tied in battle; the pot is split", "reason.target_reached": "target score reached",
  "reason.abandoned": "abandoned: no player was connected", "ev.abandoned": "The game was abandoned: no player was connected.",
  "table.chips.one": "{n} chip", "table.chips.other": "{n} chips",
});
Object.assign(bg, {
  "table.deal": "Раздаване {n}", "table.next_hand": "Следващата ръка започва скоро…",
  "table.out_of_chips": "Нямате повече чипове.", "table.back_to_lobby": "Обратно към лобито",
  "table.waiting_chips": "Чакаме играчи с чипове ({k}/{n} имат чипове)…",
  "table.joined_mid_hand": "Влязохте по време на ръката; предишните събития не са показани.",
  "reason.showdown": "показване", "reason.uncontested": "всички други се отказаха",
  "reason.last_player": "остана само един играч", "reason.same_banner_split": "останалите играчи са със знамена от една боя; банката се дели",
  "reason.battle_split": "последните двама завършиха битката наравно; банката се дели", "reason.target_reached": "достигнат е крайният резултат",
  "reason.abandoned": "прекратена: нямаше свързан играч", "ev.abandoned": "Играта е прекратена: нямаше свързан играч.",
  "table.chips.one": "{n} чип", "table.chips.other": "{n} чипа",
});
Object.assign(hy, {
  "table.deal": "Բաժանում {n}", "table.next_hand": "Հաջորդ ձեռքը շուտով…",
  "table.out_of_chips": "Ձեր ժետոնները սպառվել են։", "table.back_to_lobby": "Վերադառնալ սրահ",
  "table.waiting_chips": "Սպասում ենք ժետոններ ունեցող խաղացողների ({k}/{n} ունեն ժետոններ)…",
  "table.joined_mid_hand": "Միացել եք ձեռքի ընթացքում․ նախորդ իրադարձությունները ցույց չեն տրվում։",
  "reason.showdown": "բացում", "reason.uncontested": "մյուս բոլորը հրաժարվեցին",
  "reason.last_player": "մնաց միայն մեկ խաղացող", "reason.same_banner_split": "մնացած խաղացողների դրոշները նույն մաստի են․ բանկը կիսվում է",
  "reason.battle_split": "վերջին երկուսի ճակատամարտն ավարտվեց ոչ-ոքի․ բանկը կիսվում է", "reason.target_reached": "նպատակային հաշիվը հավաքված է",
  "reason.abandoned": "դադարեցված է․ ոչ մի խաղացող միացված չէր", "ev.abandoned": "Խաղը դադարեցվեց․ ոչ մի խաղացող միացված չէր։",
  "table.chips.one": "{n} ժետոն", "table.chips.other": "{n} ժետոն",
});

export const STRINGS = { en, bg, hy };
export const LANGS = ["en", "bg", "hy"];

/**
 * Add interface text: `tables` is {lang: {key: text}} for languages of LANGS (a key added
 * again replaces its text). Called by every module that brings text, when it is loaded.
 */
export function addStrings(tables) {
  for (const [l, more] of Object.entries(tables)) {
    if (!STRINGS[l]) throw new Error(`addStrings: no language ${l}`);
    Object.assign(STRINGS[l], more);
  }
}

function pickDefault() {
  const saved = localStorage.getItem("cardhall.lang");
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

let current = pickDefault();
const listeners = new Set();

export function lang() { return current; }

export function setLang(l) {
  if (!LANGS.includes(l) || l === current) return;
  current = l;
  localStorage.setItem("cardhall.lang", l);
  document.documentElement.lang = l;
  for (const fn of listeners) fn(l);
}

export function onLang(fn) { listeners.add(fn); return () => listeners.delete(fn); }

export function t(key, params = {}) {
  const s = STRINGS[current][key] ?? en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** t() for a count: key.one when count is 1, else key.other (falling back to key). */
export function tn(key, count, params = {}) {
  const k = `${key}.${count === 1 ? "one" : "other"}`;
  return t((STRINGS[current][k] ?? en[k]) !== undefined ? k : key, params);
}

/** A date (ISO string, ms or Date) in the current language's own format (`Intl`: 24-hour
 * time in bg and hy, no "AM"); `dateOnly` leaves the time out. A browser without the
 * language's data (some builds lack hy) gets "03.12.2026, 06:44" instead of English. */
export function dateText(when, dateOnly = false) {
  const d = when instanceof Date ? when : new Date(when);
  if (!Intl.DateTimeFormat.supportedLocalesOf([current]).length) {
    const two = (n) => String(n).padStart(2, "0");
    const day = `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()}`;
    return dateOnly ? day : `${day}, ${two(d.getHours())}:${two(d.getMinutes())}`;
  }
  const opts = dateOnly ? { dateStyle: "medium" } : { dateStyle: "medium", timeStyle: "short" };
  return new Intl.DateTimeFormat(current, opts).format(d);
}

/** An outcome reason code in words (the code itself if unknown). */
export function reasonText(code) {
  const k = `reason.${code}`;
  return en[k] ? t(k) : String(code);
}

/** Fill every [data-i18n] element under root with its text. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}
