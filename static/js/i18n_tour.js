// The tournament screens' strings (tournaments.js), en, bg, hy.
import { addStrings } from "./i18n.js";

addStrings({
  en: {
    "nav.tournaments": "Tournaments", "tour.title": "Tournaments", "tour.one": "Tournament",
    "tour.loading": "Loading…", "tour.none": "No tournaments yet.", "tour.not_found": "No tournament with this id.",
    "tour.round_of": "round {x} of {y}", "tour.entrants_n": "{n} entrants", "tour.standings": "Standings",
    "tour.col.rank": "Rank", "tour.col.entrant": "Entrant", "tour.col.score": "Score", "tour.col.buchholz": "Buchholz",
    "tour.col.sb": "Sonneborn-Berger", "tour.col.seats": "Seats", "tour.col.result": "Result", "tour.col.game": "Game", "tour.col.mp": "Matchpoints",
    "tour.withdrawn": "withdrawn", "tour.round": "Round {n}", "tour.board": "Board {n}", "tour.bye": "Bye",
    "tour.commitment": "Commitment", "tour.seed": "Seed", "tour.replay": "Replay", "tour.watch": "Watch",
    "tour.verify": "Check that every table got the same cards",
    "tour.status.running": "running", "tour.status.finished": "finished", "tour.status.failed": "failed",
    "tour.status.registering": "registering", "tour.status.pending": "waiting", "tour.status.playing": "playing",
  },
  bg: {
    "nav.tournaments": "Турнири", "tour.title": "Турнири", "tour.one": "Турнир",
    "tour.loading": "Зареждане…", "tour.none": "Още няма турнири.", "tour.not_found": "Няма турнир с този номер.",
    "tour.round_of": "кръг {x} от {y}", "tour.entrants_n": "{n} участници", "tour.standings": "Класиране",
    "tour.col.rank": "Място", "tour.col.entrant": "Участник", "tour.col.score": "Точки", "tour.col.buchholz": "Бухолц",
    "tour.col.sb": "Зонеборн-Бергер", "tour.col.seats": "Места", "tour.col.result": "Резултат", "tour.col.game": "Игра", "tour.col.mp": "Мачточки",
    "tour.withdrawn": "оттеглен", "tour.round": "Кръг {n}", "tour.board": "Раздаване {n}", "tour.bye": "Почивка",
    "tour.commitment": "Отпечатък", "tour.seed": "Семе", "tour.replay": "Преглед", "tour.watch": "Гледай",
    "tour.verify": "Провери, че всички маси са получили същите карти",
    "tour.status.running": "тече", "tour.status.finished": "завършен", "tour.status.failed": "неуспешен",
    "tour.status.registering": "записване", "tour.status.pending": "изчаква", "tour.status.playing": "играе се",
  },
  hy: {
    "nav.tournaments": "Մրցաշարեր", "tour.title": "Մրցաշարեր", "tour.one": "Մրցաշար",
    "tour.loading": "Բեռնվում է…", "tour.none": "Մրցաշարեր դեռ չկան։", "tour.not_found": "Այս համարով մրցաշար չկա։",
    "tour.round_of": "շրջան {x}՝ {y}-ից", "tour.entrants_n": "{n} մասնակից", "tour.standings": "Դասակարգում",
    "tour.col.rank": "Տեղ", "tour.col.entrant": "Մասնակից", "tour.col.score": "Միավոր", "tour.col.buchholz": "Բուխհոլց",
    "tour.col.sb": "Զոնեբորն-Բերգեր", "tour.col.seats": "Տեղեր", "tour.col.result": "Արդյունք", "tour.col.game": "Խաղ", "tour.col.mp": "Մրցամիավորներ",
    "tour.withdrawn": "դուրս է եկել", "tour.round": "Շրջան {n}", "tour.board": "Բաժանում {n}", "tour.bye": "Ազատ շրջան",
    "tour.commitment": "Հանձնառություն", "tour.seed": "Սերմ", "tour.replay": "Վերարտադրում", "tour.watch": "Դիտել",
    "tour.verify": "Ստուգել, որ բոլոր սեղանները ստացել են նույն քարտերը",
    "tour.status.running": "ընթացքում", "tour.status.finished": "ավարտված", "tour.status.failed": "ձախողված",
    "tour.status.registering": "գրանցում", "tour.status.pending": "սպասում", "tour.status.playing": "խաղում են",
  },
});
