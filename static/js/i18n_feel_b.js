// Interface text of the table-feel fixes of issue 28 (items 11-16): loaded once by main.js.

import { addStrings } from "./i18n.js";

addStrings({
  en: { "watch.guest": "Spectator", "table.full": "Every seat at this table is taken.",
    "table.watch_instead": "Watch the table" },
  bg: { "watch.guest": "Зрител", "table.full": "Всички места на тази маса са заети.",
    "table.watch_instead": "Гледай масата" },
  hy: { "watch.guest": "Հանդիսատես", "table.full": "Այս սեղանի բոլոր տեղերը զբաղված են։",
    "table.watch_instead": "Դիտել սեղանը" },
});
