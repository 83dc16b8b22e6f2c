// Interface text of the action controls (amounts on Call, Bet and Raise) and the leave dialog,
// added to i18n.js's tables (addStrings) like i18n_more.js. Same rules: {name} slots.

import { addStrings } from "./i18n.js";

addStrings({
  en: {
    "act.call_n": "Call {n}", "act.call_all_in": "Call {n} (all-in)", "act.raise_pay": "Raise: pay {n}",
    "act.bet_to": "Bet to", "act.raise_to": "Raise to", "act.pays_hint": "Puts {n} chips into the pot",
    "table.time_left": "Time left to decide",
    "table.leave_confirm_poker": "Leave the table? A stand-in bot finishes this hand for you; then your seat is freed and your stack goes back to your balance.",
  },
  bg: {
    "act.call_n": "Плати {n}", "act.call_all_in": "Плати {n} (всичко)", "act.raise_pay": "Вдигни: плащаш {n}",
    "act.bet_to": "Заложи до", "act.raise_to": "Вдигни до", "act.pays_hint": "Слага {n} чипа в банката",
    "table.time_left": "Оставащо време за решение",
    "table.leave_confirm_poker": "Да напуснете ли масата? Бот заместник довършва тази ръка вместо вас; после мястото ви се освобождава и чиповете ви се връщат в сметката ви.",
  },
  hy: {
    "act.call_n": "Վճարել {n}", "act.call_all_in": "Վճարել {n} (ամբողջը)", "act.raise_pay": "Բարձրացնել՝ վճարել {n}",
    "act.bet_to": "Դնել մինչև", "act.raise_to": "Բարձրացնել մինչև", "act.pays_hint": "Բանկ է դնում {n} ժետոն",
    "table.time_left": "Որոշման մնացած ժամանակը",
    "table.leave_confirm_poker": "Լքե՞լ սեղանը։ Փոխարինող բոտը կավարտի այս ձեռքը ձեր փոխարեն, հետո ձեր տեղը կազատվի, և ժետոնները կվերադառնան ձեր հաշվին։",
  },
});
