// More interface text (rules and help, outcomes, presence, leaving, friends, chat), merged
// into i18n.js's tables. Same rules: {name} slots, key.one/key.other pairs.

export const MORE = {
  en: {
    "nav.rules": "Rules", "rules.glossary": "Glossary", "rules.loading": "Loading the rules…",
    "rules.failed": "The rules could not be loaded.", "table.rules": "Rules",
    "lobby.rules": "How to play", "lobby.timeout_default": "server default",
  },
  bg: {
    "nav.rules": "Правила", "rules.glossary": "Речник", "rules.loading": "Зареждаме правилата…",
    "rules.failed": "Правилата не могат да се заредят.", "table.rules": "Правила",
    "lobby.rules": "Как се играе", "lobby.timeout_default": "по подразбиране",
  },
  hy: {
    "nav.rules": "Կանոններ", "rules.glossary": "Բառարան", "rules.loading": "Կանոնները բեռնվում են…",
    "rules.failed": "Կանոնները չհաջողվեց բեռնել։", "table.rules": "Կանոններ",
    "lobby.rules": "Ինչպես խաղալ", "lobby.timeout_default": "լռելյայն",
  },
};
