// Interface text of "Find a game" (seeks, js/seek.js) in en, bg and hy, added to the tables of
// i18n.js. Same rules: {name} slots.

import { addStrings } from "./i18n.js";

addStrings({ en: {
  "seek.find": "Find a game",
  "seek.rated": "rated", "seek.casual": "casual",
  "seek.waiting": "Looking for a {game} game ({kind}): {s} s",
  "seek.players": "{n} players a table",
  "seek.window": "ratings {min}–{max}",
  "seek.any": "any rating",
  "seek.cancel": "Cancel",
  "seek.expired": "No game was found in time. Try again.",
  "seek.quota": "You already have too many live tables: finish or leave one first.",
}, bg: {
  "seek.find": "Намери игра",
  "seek.rated": "с рейтинг", "seek.casual": "приятелска",
  "seek.waiting": "Търси се игра на {game} ({kind}): {s} с",
  "seek.players": "{n} играчи на маса",
  "seek.window": "рейтинг {min}–{max}",
  "seek.any": "всякакъв рейтинг",
  "seek.cancel": "Отказ",
  "seek.expired": "Не се намери игра навреме. Опитайте отново.",
  "seek.quota": "Вече имате твърде много активни маси: завършете или напуснете една.",
}, hy: {
  "seek.find": "Գտնել խաղ",
  "seek.rated": "վարկանիշային", "seek.casual": "ոչ վարկանիշային",
  "seek.waiting": "Որոնվում է {game} խաղ ({kind})՝ {s} վ",
  "seek.players": "{n} խաղացող մեկ սեղանին",
  "seek.window": "վարկանիշ {min}–{max}",
  "seek.any": "ցանկացած վարկանիշ",
  "seek.cancel": "Չեղարկել",
  "seek.expired": "Ժամանակին խաղ չգտնվեց։ Փորձեք կրկին։",
  "seek.quota": "Դուք արդեն չափազանց շատ ակտիվ սեղաններ ունեք․ նախ ավարտեք կամ լքեք մեկը։",
} });
