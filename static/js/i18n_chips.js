// Interface text of poker chips (balance, buy-in, rebuy, sitting out) in en, bg and hy, added
// to the tables of i18n.js. Same rules: {name} slots.

import { addStrings } from "./i18n.js";

addStrings({ en: {
  "chips.balance": "Your chips: {n}",
  "chips.buy_in_title": "Buy in",
  "chips.buy_in_label": "Chips to bring to the table ({min}–{max})",
  "chips.your_balance": "Your balance: {n} chips.",
  "chips.top_up_note": "Below this table's minimum: sitting down tops your balance up to {n} free play chips (once every {m} minutes).",
  "chips.sit_down": "Sit down",
  "chips.stack": "Your stack: {n}",
  "chips.rebuy": "Rebuy {n}",
  "chips.rebuy_log": "{name} rebuys: +{n} (stack {stack})",
  "chips.house_log": "{name} gets +{n} from the house (stack {stack})",
  "chips.sit_out": "Sit out next hand",
  "chips.im_back": "I'm back",
  "chips.sitting_out": "You sit out: you keep your seat and stack, and are not dealt in.",
}, bg: {
  "chips.balance": "Вашите чипове: {n}",
  "chips.buy_in_title": "Вход в играта",
  "chips.buy_in_label": "Чипове, които носите на масата ({min}–{max})",
  "chips.your_balance": "Вашият баланс: {n} чипа.",
  "chips.top_up_note": "Под минимума на тази маса: като седнете, балансът ви се допълва до {n} безплатни чипа за игра (веднъж на {m} минути).",
  "chips.sit_down": "Седнете",
  "chips.stack": "Вашите чипове на масата: {n}",
  "chips.rebuy": "Докупете {n}",
  "chips.rebuy_log": "{name} докупва: +{n} (на масата: {stack})",
  "chips.house_log": "{name} получава +{n} от заведението (на масата: {stack})",
  "chips.sit_out": "Пропуснете следващата ръка",
  "chips.im_back": "Връщам се",
  "chips.sitting_out": "Пропускате ръцете: запазвате мястото и чиповете си, но не ви се раздава.",
}, hy: {
  "chips.balance": "Ձեր ժետոնները՝ {n}",
  "chips.buy_in_title": "Մուտք խաղ",
  "chips.buy_in_label": "Սեղան բերվող ժետոններ ({min}–{max})",
  "chips.your_balance": "Ձեր հաշվեկշիռը՝ {n} ժետոն։",
  "chips.top_up_note": "Այս սեղանի նվազագույնից ցածր է․ նստելիս ձեր հաշվեկշիռը լրացվում է մինչև {n} անվճար խաղային ժետոն (յուրաքանչյուր {m} րոպեն մեկ անգամ)։",
  "chips.sit_down": "Նստել",
  "chips.stack": "Ձեր ժետոնները սեղանին՝ {n}",
  "chips.rebuy": "Գնել ևս {n}",
  "chips.rebuy_log": "{name}՝ ևս +{n} ժետոն (սեղանին՝ {stack})",
  "chips.house_log": "{name}՝ +{n} ժետոն սրահից (սեղանին՝ {stack})",
  "chips.sit_out": "Բաց թողնել հաջորդ ձեռքը",
  "chips.im_back": "Վերադարձա",
  "chips.sitting_out": "Դուք բաց եք թողնում ձեռքերը․ տեղն ու ժետոնները մնում են ձեզ, բայց ձեզ չեն բաժանում։",
} });
