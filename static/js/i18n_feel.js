// Interface text of the table feel (issue 28): "Your tables", the stand-in marks on a seat,
// the "welcome back" summary, the held trick. Merged into i18n.js's tables like i18n_more.js.

export const FEEL = {
  en: {
    "mine.title": "Your tables", "mine.private": "private", "mine.stand_in": "a stand-in plays your seat",
    "mine.with": "with {names}",
    "blot.trick_taken": "{name} takes the trick", "blot.takes": "{name} takes",
  },
  bg: {
    "mine.title": "Вашите маси", "mine.private": "частна", "mine.stand_in": "заместник играе на мястото ви",
    "mine.with": "с {names}",
    "blot.trick_taken": "{name} взима ръката", "blot.takes": "{name} взима",
  },
  hy: {
    "mine.title": "Ձեր սեղանները", "mine.private": "մասնավոր", "mine.stand_in": "ձեր տեղում խաղում է փոխարինողը",
    "mine.with": "{names}-ի հետ",
    "blot.trick_taken": "{name}-ը վերցնում է ձեռքը", "blot.takes": "{name}-ը վերցնում է",
  },
};
