// Game modules by the server's game name.
import * as bazaar_blot from "./bazaar_blot.js";
import * as soldiers_bluff from "./soldiers_bluff.js";
import * as palace_poker from "./palace_poker.js";

export const GAMES = { bazaar_blot, soldiers_bluff, palace_poker };
