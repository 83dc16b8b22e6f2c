// More interface text (rules and help, outcomes, presence, leaving, friends, chat, play again), added
// to i18n.js's tables (addStrings). Same rules: {name} slots, key.one/key.other pairs.

import { addStrings } from "./i18n.js";

addStrings({
  en: {
    "rematch.play_again": "Play again", "rematch.asking": "Setting up a new table…",
    "rematch.offer": "{name} offers a rematch", "rematch.join": "Join",
    "nav.rules": "Rules", "rules.glossary": "Glossary", "rules.loading": "Loading the rules…",
    "rules.failed": "The rules could not be loaded.", "table.rules": "Rules",
    "lobby.rules": "How to play", "lobby.timeout_default": "server default", "lobby.timeout_default_n": "{n} s (default)", "lobby.rule_default": "the rules' default", "act.keep_all": "Keep all",
    "chat.title": "Chat", "chat.send": "Send", "chat.say": "Say something…", "chat.mute": "Mute {name}",
    "chat.mute_short": "mute", "invite.share": "Invite a friend:", "invite.copy": "Copy link",
    "invite.copied": "Copied.", "invite.link": "Invite link", "lobby.private": "Private table (invite link only)", "lobby.casual": "Casual (no rating changes)",
    "table.leave_confirm": "Leave the table? A stand-in bot plays your seat until the game ends or you come back. With nobody else at the table, the game ends after a few minutes.",
    "table.stand_in_plays": "A stand-in bot is playing your seat.", "table.take_back": "Take my seat back",
  },
  bg: {
    "rematch.play_again": "Играй отново", "rematch.asking": "Подготвяме нова маса…",
    "rematch.offer": "{name} предлага реванш", "rematch.join": "Влез",
    "nav.rules": "Правила", "rules.glossary": "Речник", "rules.loading": "Зареждаме правилата…",
    "rules.failed": "Правилата не могат да се заредят.", "table.rules": "Правила",
    "lobby.rules": "Как се играе", "lobby.timeout_default": "по подразбиране", "lobby.timeout_default_n": "{n} сек. (по подразбиране)", "lobby.rule_default": "по правилата", "act.keep_all": "Запази всички",
    "chat.title": "Чат", "chat.send": "Изпрати", "chat.say": "Напишете нещо…", "chat.mute": "Заглуши {name}",
    "chat.mute_short": "заглуши", "invite.share": "Поканете приятел:", "invite.copy": "Копирай връзката",
    "invite.copied": "Копирано.", "invite.link": "Връзка за покана", "lobby.private": "Частна маса (само с покана)", "lobby.casual": "Без рейтинг (рейтингът не се променя)",
    "table.leave_confirm": "Да напуснете ли масата? Бот заместник играе мястото ви, докато играта свърши или се върнете. Ако на масата няма никой друг, играта приключва след няколко минути.",
    "table.stand_in_plays": "Бот заместник играе на мястото ви.", "table.take_back": "Върни ми мястото",
  },
  hy: {
    "rematch.play_again": "Խաղալ կրկին", "rematch.asking": "Նոր սեղան ենք պատրաստում…",
    "rematch.offer": "{name} առաջարկում է ռևանշ", "rematch.join": "Միանալ",
    "nav.rules": "Կանոններ", "rules.glossary": "Բառարան", "rules.loading": "Կանոնները բեռնվում են…",
    "rules.failed": "Կանոնները չհաջողվեց բեռնել։", "table.rules": "Կանոններ",
    "lobby.rules": "Ինչպես խաղալ", "lobby.timeout_default": "լռելյայն", "lobby.timeout_default_n": "{n} վրկ. (լռելյայն)", "lobby.rule_default": "ըստ կանոնների", "act.keep_all": "Պահել բոլորը",
    "chat.title": "Զրույց", "chat.send": "Ուղարկել", "chat.say": "Գրեք ինչ-որ բան…", "chat.mute": "Լռեցնել {name}-ին",
    "chat.mute_short": "լռեցնել", "invite.share": "Հրավիրեք ընկերոջը՝", "invite.copy": "Պատճենել հղումը",
    "invite.copied": "Պատճենված է։", "invite.link": "Հրավերի հղում", "lobby.private": "Մասնավոր սեղան (միայն հրավերով)", "lobby.casual": "Առանց վարկանիշի (վարկանիշը չի փոխվում)",
    "table.leave_confirm": "Լքե՞լ սեղանը։ Փոխարինող բոտը կխաղա ձեր տեղում, մինչև խաղն ավարտվի կամ վերադառնաք։ Եթե սեղանի շուրջ ուրիշ ոչ ոք չկա, խաղն ավարտվում է մի քանի րոպեից։",
    "table.stand_in_plays": "Փոխարինող բոտը խաղում է ձեր տեղում։", "table.take_back": "Վերադարձնել իմ տեղը",
  },
});
