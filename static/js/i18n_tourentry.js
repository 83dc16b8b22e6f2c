// The strings of a tournament's entry block (tourentry.js) and the form's open fields, en, bg, hy.
import { addStrings } from "./i18n.js";

addStrings({
  en: {
    "tour.starts_at": "Starts {time}", "tour.entered": "{n} of {most} entrants",
    "tour.join_needs_name": "Choose a name to join.", "tour.join": "Join", "tour.you_entered": "You are in.",
    "tour.bot_partner": "Your partner is a bot.", "tour.withdraw": "Withdraw", "tour.start_now": "Start now", "tour.cancel": "Cancel the tournament",
    "tour.you_withdrew": "You withdrew; your results so far count.", "tour.play_your_table": "Play at your table",
    "tour.wait_your_table": "Your next table is being made…", "tour.cancelled_why": "Cancelled: {why}",
    "tour.status.cancelled": "cancelled", "tour.f.open": "Open for players", "tour.f.starts_in": "Starts in (minutes)", "tour.f.rated": "Rated", "tour.casual": "casual (no rating changes)", "tour.alone": "Played at one table only: nothing to compare it with, so it scores 0 for every side.", "tour.partner_bot": "{name}'s bot partner",
    "tour.err.tournament.full": "The tournament is full.", "tour.err.not_allowed": "These settings are not allowed:", "tour.err.tournament.closed": "Entries are closed.",
    "tour.err.tournament.already_entered": "You are already in.", "tour.err.tournament.not_entered": "You are not an entrant.",
    "tour.err.tournament.not_creator": "Only the tournament's creator starts it.",
  },
  bg: {
    "tour.starts_at": "Започва {time}", "tour.entered": "{n} от {most} участници",
    "tour.join_needs_name": "Изберете име, за да се включите.", "tour.join": "Включи се", "tour.you_entered": "Записани сте.",
    "tour.bot_partner": "Партньорът ви е бот.", "tour.withdraw": "Оттегли се", "tour.start_now": "Започни сега", "tour.cancel": "Отмени турнира",
    "tour.you_withdrew": "Оттеглихте се; резултатите ви дотук се броят.", "tour.play_your_table": "Играйте на вашата маса",
    "tour.wait_your_table": "Следващата ви маса се подготвя…", "tour.cancelled_why": "Отменен: {why}",
    "tour.status.cancelled": "отменен", "tour.f.open": "Отворен за играчи", "tour.f.starts_in": "Започва след (минути)", "tour.f.rated": "С рейтинг", "tour.casual": "без рейтинг", "tour.alone": "Изиграно само на една маса: няма с какво да се сравни, затова носи 0 на всяка страна.", "tour.partner_bot": "бот партньор на {name}",
    "tour.err.tournament.full": "Турнирът е пълен.", "tour.err.not_allowed": "Тези настройки не са позволени:", "tour.err.tournament.closed": "Записването е приключило.",
    "tour.err.tournament.already_entered": "Вече сте записани.", "tour.err.tournament.not_entered": "Не сте участник.",
    "tour.err.tournament.not_creator": "Само създателят на турнира го започва.",
  },
  hy: {
    "tour.starts_at": "Սկսվում է {time}", "tour.entered": "{n} մասնակից {most}-ից",
    "tour.join_needs_name": "Ընտրեք անուն՝ միանալու համար։", "tour.join": "Միանալ", "tour.you_entered": "Դուք գրանցված եք։",
    "tour.bot_partner": "Ձեր զուգընկերը բոտ է։", "tour.withdraw": "Դուրս գալ", "tour.start_now": "Սկսել հիմա", "tour.cancel": "Չեղարկել մրցաշարը",
    "tour.you_withdrew": "Դուք դուրս եկաք․ մինչ այժմ ձեր արդյունքները հաշվվում են։", "tour.play_your_table": "Խաղալ ձեր սեղանին",
    "tour.wait_your_table": "Ձեր հաջորդ սեղանը պատրաստվում է…", "tour.cancelled_why": "Չեղարկված է՝ {why}",
    "tour.status.cancelled": "չեղարկված", "tour.f.open": "Բաց խաղացողների համար", "tour.f.starts_in": "Սկսվում է (րոպեից)", "tour.f.rated": "Վարկանիշային", "tour.casual": "առանց վարկանիշի", "tour.alone": "Խաղացվել է միայն մեկ սեղանում․ համեմատելու բան չկա, ուստի յուրաքանչյուր կողմին տալիս է 0։", "tour.partner_bot": "{name}-ի բոտ զուգընկերը",
    "tour.err.tournament.full": "Մրցաշարը լրացված է։", "tour.err.not_allowed": "Այս կարգավորումները թույլատրված չեն՝", "tour.err.tournament.closed": "Գրանցումը փակված է։",
    "tour.err.tournament.already_entered": "Դուք արդեն գրանցված եք։", "tour.err.tournament.not_entered": "Դուք մասնակից չեք։",
    "tour.err.tournament.not_creator": "Մրցաշարը սկսում է միայն դրա ստեղծողը։",
  },
});
