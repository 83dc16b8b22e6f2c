// Interface text of sound, keyboard play and the shortcut help (issue 28: sound.js, keys.js).
// Added to i18n.js's tables (addStrings) like i18n_feel.js.

import { addStrings } from "./i18n.js";

addStrings({
  en: {
    "feel.mute": "Mute sounds", "feel.time_left": "Seconds left to move", "feel.sound_on": "Sound on (click to mute)", "feel.sound_off": "Sound off (click to unmute)",
    "keys.button": "⌨ ?", "keys.title": "Keyboard shortcuts",
    "keys.n": "Focus the nth card you may play or pick", "keys.arrows": "Move between the cards and buttons you may use",
    "keys.enter": "Play the focused card or press the focused button", "keys.help": "Show this help",
    "keys.esc": "Close this help", "keys.confirm_play": "Confirm before playing a card (click or Enter twice)",
    "keys.again": "{card} is chosen: click it or press Enter again to play it.",
  },
  bg: {
    "feel.mute": "Без звук", "feel.time_left": "Оставащи секунди за ход", "feel.sound_on": "Звукът е включен (щракнете, за да го спрете)", "feel.sound_off": "Звукът е спрян (щракнете, за да го включите)",
    "keys.button": "⌨ ?", "keys.title": "Клавишни комбинации",
    "keys.n": "Фокус върху n-тата карта, която може да изиграете или изберете", "keys.arrows": "Преместване между позволените карти и бутони",
    "keys.enter": "Изиграване на картата или натискане на бутона на фокус", "keys.help": "Показване на тази помощ",
    "keys.esc": "Затваряне на помощта", "keys.confirm_play": "Потвърждение преди изиграване на карта (две щраквания или Enter)",
    "keys.again": "Избрана е {card}: щракнете или натиснете Enter отново, за да я изиграете.",
  },
  hy: {
    "feel.mute": "Անջատել ձայնը", "feel.time_left": "Քայլի համար մնացած վայրկյանները", "feel.sound_on": "Ձայնը միացված է (սեղմեք՝ անջատելու համար)", "feel.sound_off": "Ձայնն անջատված է (սեղմեք՝ միացնելու համար)",
    "keys.button": "⌨ ?", "keys.title": "Ստեղնային դյուրանցումներ",
    "keys.n": "Ֆոկուս n-րդ քարտի վրա, որը կարող եք խաղալ կամ ընտրել", "keys.arrows": "Անցում թույլատրված քարտերի և կոճակների միջև",
    "keys.enter": "Խաղալ ֆոկուսում գտնվող քարտը կամ սեղմել կոճակը", "keys.help": "Ցույց տալ այս օգնությունը",
    "keys.esc": "Փակել օգնությունը", "keys.confirm_play": "Հաստատել քարտը խաղալուց առաջ (երկու սեղմում կամ Enter)",
    "keys.again": "{card}-ն ընտրված է․ սեղմեք այն կամ կրկին Enter՝ խաղալու համար։",
  },
});
