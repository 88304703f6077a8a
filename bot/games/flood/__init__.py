"""After the Flood (Martin Wallace, 2008) for exactly 3 players: workers, trade, empires.

The rules engine is written from the French summary (seed 001) and the data designed for
this project in ``data/flood`` (map, tables, rulings).

A round runs by itself through collection (phase 1) and decline (phase 2, rounds 2 and
4), then asks the players in turn order for one action each (phase 3) until all have
passed; the next order (phase 4) and the armies' points (phase 5) follow by themselves,
then each player in the new order may extend cities, and phase 6 clears the board for the
next round. After round 5 the worker majorities score and the game is over.

A turn is one action in small steps (``step``):

- ``act``: ``build <region>``, ``place``, ``trade``, ``empire <id> [<region>]``,
  ``extend`` or ``pass``. Once someone has passed, a non-pass action first asks ``pay``:
  ``pay <resource>``, ``pay army`` or ``pay worker`` (the opportunity cost).
- Build a City: done at once, or ``rebase`` (``from <region>``) when all bases are placed.
- Place Workers (``place``): ``spend <resource>`` then ``put`` (``place <where> <k>``, or
  ``fewer`` first to place fewer than the resource's value);
  scribes: ``scribe <where>`` (a worker from the stock) or ``move <from>`` then ``to``
  (``to <where>`` or ``to stock``); ``done``.
- Trade (``trade``): ``buy <get> <region> <give>``, ``tool`` (one metal into tools),
  ``done``.
- Initiate an Empire (``raise``): ``recruit grain|metal|tools``, ``equip <resource>``, then
  ``march 1`` or ``march 2``; an enemy army there means a battle.
- Extend an Empire (``extend``): ``invade <region>``, ``reinforce <region>``,
  ``destroy <region>``, ``done``; a battle (``battle``) rolls at once, then ``go on`` or
  ``stop`` after each roll (stopping ends the action).
- Pass (``bid``): ``bid <resource>`` into the Passed box, ``done``.
- Victory Points phase: ``vp`` (``enlarge <city>``, ``done``) and ``lux``
  (``add <luxury>``, ``done``).

An action's steps end it by themselves when nothing more is possible. Every rule is cited
in ``data/flood/RULINGS.md``.

Modules (the same names in every game package, see ``bot/games/README.md``):

- ``state``: the state's shape (``FloodState``, a ``TypedDict``), setup and the shared
  queries.
- ``options``: the legal steps now; ``checks``: why a step is refused.
- ``effects``: what a step does (``pieces``: the small moves of pieces and goods it shares
  with ``rounds``: the end of a turn and the automatic phases).
- ``texts``: labels, choices and prompts; ``narration``: what a step did (reports).
- ``view``: what each seat sees, ``determinize``, ``mark`` (the places a turn changed);
  ``heuristic``: the AI's judgement.
- ``engine``: ``GAME``, the object the core drives (``bot.engine.Game``).
- ``data``: the map and the tables (``data/flood``).
"""
