// Interface text of the table-feel fixes of issue 28 (items 11-16): loaded once by main.js.

import { addStrings } from "./i18n.js";

addStrings({
  en: { "watch.guest": "Spectator" },
  bg: { "watch.guest": "Зрител" },
  hy: { "watch.guest": "Հանդիսատես" },
});
