// Interface text in English, Bulgarian and Armenian. t(key, params) fills {name} slots;
// a key missing in bg/hy falls back to English, a key missing everywhere shows itself.

import { MORE } from "./i18n_more.js";
import { CONTROLS } from "./i18n_controls.js";
import { FEEL } from "./i18n_feel.js";

const en = {
  "nav.lobby": "Lobby", "nav.games": "Finished games", "nav.language": "Language",
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
  "lobby.quick": "Quick seat", "lobby.join": "Sit", "lobby.watch": "Watch",
  "lobby.free": "free", "lobby.back": "Back to your seat",
  "status.waiting": "waiting", "status.playing": "playing", "status.between_hands": "between hands",
  "status.finished": "finished", "status.closed": "closed",
  "game.bazaar_blot": "Bazaar Blot", "game.soldiers_bluff": "Soldier's Bluff",
  "game.palace_poker": "Palace Poker",
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
  // Bazaar Blot
  "blot.bids": "{name} bids {level}{suit}", "blot.kapot": "{name} bids kapot {suit}",
  "blot.passes": "{name} passes", "blot.contra": "{name}: contra!", "blot.recontra": "{name}: recontra!",
  "blot.contract": "Contract: {what} by {name}{mult}", "blot.redeal": "All pass: redeal.",
  "blot.plays": "{name} plays {card}", "blot.trick": "{name} takes the trick ({points} points)",
  "blot.declared": "{name} declares {what}", "blot.shown": "Combinations shown: {what}",
  "blot.deal_scored": "Deal {n} scored: {a} – {b}", "blot.match_over": "Match over: team {team} wins {a} – {b}",
  "blot.dealt": "{name} deals.", "blot.dealt_you": "You get {cards}.",
  "blot.contract_label": "Contract", "blot.none": "none yet", "blot.match": "Match",
  "blot.target": "to {n}", "blot.team": "Team {n}", "blot.tricks": "Tricks",
  "blot.points": "Card points", "blot.auction": "Auction", "blot.last_trick": "Last trick",
  "blot.declarations": "Combinations", "blot.sequence": "sequence of {n}", "blot.carre": "carré",
  "blot.deal_summary": "Deal {n}", "blot.card_points": "Card points",
  "blot.combinations": "Combinations", "blot.small": "Small points", "blot.made": "Contract made",
  "blot.failed": "Contract failed", "blot.scores": "Deal score", "blot.totals": "Match score",
  "blot.declarer": "declarer", "blot.we": "Us", "blot.they": "Them",
  "blot.kapot_word": "kapot", "blot.bidding": "Bidding box",
  // Soldier's Bluff
  "sb.antes": "Antes posted; pot {pot}.", "sb.deal": "Cards dealt; {n} left in the stock.",
  "sb.exchanged": "{name} exchanges {n}", "sb.drew": "You discard {out} and draw {in}.",
  "sb.round": "Betting round {n}", "sb.pass": "{name} passes", "sb.bet": "{name} bets to {stake}",
  "sb.check": "{name} checks", "sb.call": "{name} calls ({stake})", "sb.raise": "{name} raises to {stake}",
  "sb.fold": "{name} folds", "sb.showdown": "Showdown", "sb.pot_awarded": "{name} wins {chips} chips",
  "sb.pot": "Pot", "sb.round_label": "Round", "sb.highest": "Highest stake", "sb.cap": "Cap",
  "sb.stock": "Stock", "sb.stake": "stake {n}", "sb.folded": "folded", "sb.exch": "exchanged {n}",
  "sb.value": "value {n}", "sb.winner": "Winner: {name}", "sb.returns": "Chips won or lost",
  // Palace Poker
  "pp.banners": "Banners dealt.", "pp.palace": "Your palace: {cards}", "pp.palaces_dealt": "Palaces dealt; stock {n}.",
  "pp.buy": "{name} buys ({paid})", "pp.soldier": "{name} draws a soldier {card}",
  "pp.discard": "{name} discards {count}", "pp.stay": "{name} stays", "pp.fold": "{name} folds",
  "pp.battle": "{name} attacks {target} ({paid})", "pp.raise": "{name} raises ({paid})",
  "pp.call": "{name} calls ({paid})", "pp.battle_fold": "{name} gives up the battle",
  "pp.battle_result": "{name} wins the battle against {loser}", "pp.battle_tie": "The battle is a tie",
  "pp.battle_reveal": "Battle palaces revealed", "pp.reshuffle": "The discards are reshuffled.",
  "pp.hand_end": "Hand over: {names} win {pot}", "pp.pot": "Pot", "pp.stock": "Stock",
  "pp.discards": "Discards", "pp.rejected": "Rejected banners", "pp.banner": "Banner",
  "pp.soldiers": "Soldiers", "pp.palace_label": "Your palace", "pp.committed": "in pot {n}",
  "pp.attack_cost": "attack costs {n}", "pp.folded": "out", "pp.battle_now": "Battle: {a} attacks {d}",
  "pp.owed": "{name} owes {n}", "pp.revealed": "Palace", "pp.last_battle": "Last battle: {name} won",
  "pp.winners": "Winners: {names}", "pp.returns": "Chips won or lost",
};

const bg = {
  "nav.lobby": "Лоби", "nav.games": "Изиграни игри", "nav.language": "Език",
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
  "lobby.quick": "Бързо място", "lobby.join": "Седни", "lobby.watch": "Гледай",
  "lobby.free": "свободно", "lobby.back": "Обратно към мястото ви",
  "status.waiting": "чака", "status.playing": "играе се", "status.between_hands": "между ръцете",
  "status.finished": "приключила", "status.closed": "затворена",
  "game.bazaar_blot": "Пазарен белот", "game.soldiers_bluff": "Войнишки блъф",
  "game.palace_poker": "Дворцов покер",
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
  "blot.bids": "{name} обявява {level}{suit}", "blot.kapot": "{name} обявява капо {suit}",
  "blot.passes": "{name} казва пас", "blot.contra": "{name}: контра!", "blot.recontra": "{name}: реконтра!",
  "blot.contract": "Договор: {what} на {name}{mult}", "blot.redeal": "Всички пас: ново раздаване.",
  "blot.plays": "{name} играе {card}", "blot.trick": "{name} взима ръката ({points} точки)",
  "blot.declared": "{name} обявява {what}", "blot.shown": "Показани комбинации: {what}",
  "blot.deal_scored": "Раздаване {n}: {a} – {b}", "blot.match_over": "Край: отбор {team} печели {a} – {b}",
  "blot.dealt": "{name} раздава.", "blot.dealt_you": "Получавате {cards}.",
  "blot.contract_label": "Договор", "blot.none": "още няма", "blot.match": "Мач",
  "blot.target": "до {n}", "blot.team": "Отбор {n}", "blot.tricks": "Ръце",
  "blot.points": "Точки от карти", "blot.auction": "Наддаване", "blot.last_trick": "Последна ръка",
  "blot.declarations": "Комбинации", "blot.sequence": "поредица от {n}", "blot.carre": "каре",
  "blot.deal_summary": "Раздаване {n}", "blot.card_points": "Точки от карти",
  "blot.combinations": "Комбинации", "blot.small": "Малки точки", "blot.made": "Договорът е изпълнен",
  "blot.failed": "Договорът е провален", "blot.scores": "Точки от раздаването", "blot.totals": "Резултат в мача",
  "blot.declarer": "играч на договора", "blot.we": "Ние", "blot.they": "Те",
  "blot.kapot_word": "капо", "blot.bidding": "Кутия за обяви",
  "sb.antes": "Антето е платено; банка {pot}.", "sb.deal": "Картите са раздадени; в тестето остават {n}.",
  "sb.exchanged": "{name} сменя {n}", "sb.drew": "Изхвърляте {out} и теглите {in}.",
  "sb.round": "Кръг на залагане {n}", "sb.pass": "{name} казва пас", "sb.bet": "{name} залага до {stake}",
  "sb.check": "{name} чека", "sb.call": "{name} плаща ({stake})", "sb.raise": "{name} вдига до {stake}",
  "sb.fold": "{name} се отказва", "sb.showdown": "Показване", "sb.pot_awarded": "{name} печели {chips} чипа",
  "sb.pot": "Банка", "sb.round_label": "Кръг", "sb.highest": "Най-висок залог", "sb.cap": "Таван",
  "sb.stock": "Тесте", "sb.stake": "залог {n}", "sb.folded": "отказал се", "sb.exch": "сменил {n}",
  "sb.value": "стойност {n}", "sb.winner": "Победител: {name}", "sb.returns": "Спечелени или загубени чипове",
  "pp.banners": "Знамената са раздадени.", "pp.palace": "Вашият дворец: {cards}", "pp.palaces_dealt": "Дворците са раздадени; тесте {n}.",
  "pp.buy": "{name} купува ({paid})", "pp.soldier": "{name} тегли войник {card}",
  "pp.discard": "{name} изхвърля {count}", "pp.stay": "{name} остава", "pp.fold": "{name} се отказва",
  "pp.battle": "{name} напада {target} ({paid})", "pp.raise": "{name} вдига ({paid})",
  "pp.call": "{name} плаща ({paid})", "pp.battle_fold": "{name} се отказва от битката",
  "pp.battle_result": "{name} печели битката срещу {loser}", "pp.battle_tie": "Битката е наравно",
  "pp.battle_reveal": "Дворците в битката са показани", "pp.reshuffle": "Изхвърлените карти се разбъркват.",
  "pp.hand_end": "Край на ръката: {names} печелят {pot}", "pp.pot": "Банка", "pp.stock": "Тесте",
  "pp.discards": "Изхвърлени", "pp.rejected": "Отхвърлени знамена", "pp.banner": "Знаме",
  "pp.soldiers": "Войници", "pp.palace_label": "Вашият дворец", "pp.committed": "в банката {n}",
  "pp.attack_cost": "атака струва {n}", "pp.folded": "вън", "pp.battle_now": "Битка: {a} напада {d}",
  "pp.owed": "{name} дължи {n}", "pp.revealed": "Дворец", "pp.last_battle": "Последна битка: победи {name}",
  "pp.winners": "Победители: {names}", "pp.returns": "Спечелени или загубени чипове",
};

const hy = {
  "nav.lobby": "Սրահ", "nav.games": "Ավարտված խաղեր", "nav.language": "Լեզու",
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
  "lobby.quick": "Արագ տեղ", "lobby.join": "Նստել", "lobby.watch": "Դիտել",
  "lobby.free": "ազատ", "lobby.back": "Վերադառնալ ձեր տեղը",
  "status.waiting": "սպասում է", "status.playing": "խաղ է ընթանում", "status.between_hands": "ձեռքերի միջև",
  "status.finished": "ավարտված", "status.closed": "փակված",
  "game.bazaar_blot": "Շուկայական բլոտ", "game.soldiers_bluff": "Զինվորի բլեֆ",
  "game.palace_poker": "Պալատական պոկեր",
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
  "blot.bids": "{name}՝ {level}{suit}", "blot.kapot": "{name}՝ կապոտ {suit}",
  "blot.passes": "{name}՝ պաս", "blot.contra": "{name}՝ կոնտրա!", "blot.recontra": "{name}՝ ռեկոնտրա!",
  "blot.contract": "Պայմանագիր՝ {what}, {name}{mult}", "blot.redeal": "Բոլորը պաս. նոր բաժանում։",
  "blot.plays": "{name}՝ {card}", "blot.trick": "{name}-ը վերցնում է ձեռքը ({points} միավոր)",
  "blot.declared": "{name}-ը հայտարարում է {what}", "blot.shown": "Ցույց տրված համակցություններ՝ {what}",
  "blot.deal_scored": "Բաժանում {n}՝ {a} – {b}", "blot.match_over": "Ավարտ․ թիմ {team}-ը հաղթում է {a} – {b}",
  "blot.dealt": "{name}-ը բաժանում է։", "blot.dealt_you": "Ստանում եք {cards}։",
  "blot.contract_label": "Պայմանագիր", "blot.none": "դեռ չկա", "blot.match": "Մրցախաղ",
  "blot.target": "մինչև {n}", "blot.team": "Թիմ {n}", "blot.tricks": "Ձեռքեր",
  "blot.points": "Քարտերի միավորներ", "blot.auction": "Աճուրդ", "blot.last_trick": "Վերջին ձեռքը",
  "blot.declarations": "Համակցություններ", "blot.sequence": "{n} հաջորդական", "blot.carre": "կարե",
  "blot.deal_summary": "Բաժանում {n}", "blot.card_points": "Քարտերի միավորներ",
  "blot.combinations": "Համակցություններ", "blot.small": "Փոքր միավորներ", "blot.made": "Պայմանագիրը կատարված է",
  "blot.failed": "Պայմանագիրը ձախողված է", "blot.scores": "Բաժանման միավորներ", "blot.totals": "Մրցախաղի հաշիվ",
  "blot.declarer": "հայտատու", "blot.we": "Մենք", "blot.they": "Նրանք",
  "blot.kapot_word": "կապոտ", "blot.bidding": "Հայտերի տուփ",
  "sb.antes": "Անտեները դրված են; բանկ {pot}։", "sb.deal": "Քարտերը բաժանված են; կապուկում մնաց {n}։",
  "sb.exchanged": "{name}-ը փոխում է {n}", "sb.drew": "Դեն եք նետում {out} և վերցնում {in}։",
  "sb.round": "Խաղադրույքների շրջան {n}", "sb.pass": "{name}՝ պաս", "sb.bet": "{name}-ը դնում է մինչև {stake}",
  "sb.check": "{name}՝ չեք", "sb.call": "{name}-ը վճարում է ({stake})", "sb.raise": "{name}-ը բարձրացնում է մինչև {stake}",
  "sb.fold": "{name}-ը հրաժարվում է", "sb.showdown": "Բացում", "sb.pot_awarded": "{name}-ը շահում է {chips} ժետոն",
  "sb.pot": "Բանկ", "sb.round_label": "Շրջան", "sb.highest": "Ամենաբարձր խաղադրույք", "sb.cap": "Առավելագույն",
  "sb.stock": "Կապուկ", "sb.stake": "խաղադրույք {n}", "sb.folded": "հրաժարվել է", "sb.exch": "փոխել է {n}",
  "sb.value": "արժեք {n}", "sb.winner": "Հաղթող՝ {name}", "sb.returns": "Շահած կամ կորցրած ժետոններ",
  "pp.banners": "Դրոշները բաժանված են։", "pp.palace": "Ձեր պալատը՝ {cards}", "pp.palaces_dealt": "Պալատները բաժանված են; կապուկ {n}։",
  "pp.buy": "{name}-ը գնում է ({paid})", "pp.soldier": "{name}-ը վերցնում է զինվոր {card}",
  "pp.discard": "{name}-ը դեն է նետում {count}", "pp.stay": "{name}-ը մնում է", "pp.fold": "{name}-ը հրաժարվում է",
  "pp.battle": "{name}-ը հարձակվում է {target}-ի վրա ({paid})", "pp.raise": "{name}-ը բարձրացնում է ({paid})",
  "pp.call": "{name}-ը վճարում է ({paid})", "pp.battle_fold": "{name}-ը հանձնվում է",
  "pp.battle_result": "{name}-ը հաղթում է {loser}-ին", "pp.battle_tie": "Ճակատամարտը ոչ-ոքի է",
  "pp.battle_reveal": "Ճակատամարտի պալատները բացված են", "pp.reshuffle": "Դեն նետված քարտերը խառնվում են։",
  "pp.hand_end": "Ձեռքն ավարտվեց․ {names} շահում են {pot}", "pp.pot": "Բանկ", "pp.stock": "Կապուկ",
  "pp.discards": "Դեն նետված", "pp.rejected": "Մերժված դրոշներ", "pp.banner": "Դրոշ",
  "pp.soldiers": "Զինվորներ", "pp.palace_label": "Ձեր պալատը", "pp.committed": "բանկում {n}",
  "pp.attack_cost": "հարձակումն արժե {n}", "pp.folded": "դուրս", "pp.battle_now": "Ճակատամարտ․ {a}-ը հարձակվում է {d}-ի վրա",
  "pp.owed": "{name}-ը պարտք է {n}", "pp.revealed": "Պալատ", "pp.last_battle": "Վերջին ճակատամարտ․ հաղթեց {name}",
  "pp.winners": "Հաղթողներ՝ {names}", "pp.returns": "Շահած կամ կորցրած ժետոններ",
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
  "blot.match_abandoned": "Match abandoned at {a} – {b}",
  "table.chips.one": "{n} chip", "table.chips.other": "{n} chips",
  "sb.pot_awarded.one": "{name} wins {chips} chip", "sb.pot_awarded.other": "{name} wins {chips} chips",
  "pp.hand_end.one": "Hand over: {names} wins {pot}", "pp.hand_end.other": "Hand over: {names} win {pot}",
  "pp.winners.one": "Winner: {names}", "pp.winners.other": "Winners: {names}",
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
  "blot.match_abandoned": "Мачът е прекратен при {a} – {b}",
  "table.chips.one": "{n} чип", "table.chips.other": "{n} чипа",
  "sb.pot_awarded.one": "{name} печели {chips} чип", "sb.pot_awarded.other": "{name} печели {chips} чипа",
  "pp.hand_end.one": "Край на ръката: {names} печели {pot}", "pp.hand_end.other": "Край на ръката: {names} печелят {pot}",
  "pp.winners.one": "Победител: {names}", "pp.winners.other": "Победители: {names}",
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
  "blot.match_abandoned": "Խաղը դադարեցվեց {a} – {b} հաշվով",
  "table.chips.one": "{n} ժետոն", "table.chips.other": "{n} ժետոն",
  "sb.pot_awarded.one": "{name}-ը շահում է {chips} ժետոն", "sb.pot_awarded.other": "{name}-ը շահում է {chips} ժետոն",
  "pp.hand_end.one": "Ձեռքն ավարտվեց․ {names}-ը շահում է {pot}", "pp.hand_end.other": "Ձեռքն ավարտվեց․ {names} շահում են {pot}",
  "pp.winners.one": "Հաղթող՝ {names}", "pp.winners.other": "Հաղթողներ՝ {names}",
});

for (const extra of [MORE, CONTROLS, FEEL]) {
  for (const [l, more] of Object.entries(extra)) Object.assign({ en, bg, hy }[l], more);
}

export const STRINGS = { en, bg, hy };
export const LANGS = ["en", "bg", "hy"];

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

/** An outcome reason code in words (the code itself if unknown). */
export function reasonText(code) {
  const k = `reason.${code}`;
  return en[k] ? t(k) : String(code);
}

/** Fill every [data-i18n] element under root with its text. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}
