// Dingir's game page: step through the boards, and follow the game as it moves.
"use strict";
(function () {
  const POLL_MS = 5000;
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  let data = read("data");
  const words = read("words");
  const board = document.getElementById("board");
  const caption = document.getElementById("caption");
  const slider = document.getElementById("slider");
  const lang = document.documentElement.lang;
  let shown = data.frames.length - 1;
  let timer = null;

  function show(index) {
    shown = Math.max(0, Math.min(index, data.frames.length - 1));
    const frame = data.frames[shown];
    if (frame.src && board.getAttribute("src") !== frame.src) board.setAttribute("src", frame.src);
    board.alt = words.alt.replace("{frame}", frame.label);
    caption.textContent = frame.label;
    slider.max = String(data.frames.length - 1);
    slider.value = String(shown);
    document.querySelectorAll("#log .turn").forEach((turn) => {
      const frame = Number(turn.dataset.frame);
      turn.hidden = frame > shown;
      turn.classList.toggle("current", frame === shown);
    });
    const log = document.getElementById("log");
    const current = log.querySelector(".turn.current");
    if (current) log.scrollTop = current.offsetTop - log.offsetTop;
  }

  function play(on) {
    const button = document.querySelector('[data-step="play"]');
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (on) {
      if (shown >= data.frames.length - 1) show(0);
      timer = setInterval(() => {
        if (shown >= data.frames.length - 1) play(false); else show(shown + 1);
      }, 900);
    }
    button.textContent = on ? words.pause : words.play;
  }

  const steps = {
    first: () => show(0),
    prev: () => show(shown - 1),
    next: () => show(shown + 1),
    last: () => show(data.frames.length - 1),
    play: () => play(timer === null),
  };
  document.querySelectorAll("[data-step]").forEach((button) => {
    button.addEventListener("click", () => {
      if (button.dataset.step !== "play") play(false);
      steps[button.dataset.step]();
    });
  });
  slider.addEventListener("input", () => { play(false); show(Number(slider.value)); });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target !== slider) return;
    if (event.key === "ArrowLeft") { play(false); show(shown - 1); event.preventDefault(); }
    if (event.key === "ArrowRight") { play(false); show(shown + 1); event.preventDefault(); }
  });

  function update(next) {
    const atEnd = shown >= data.frames.length - 1;
    data = next;
    for (const [id, html] of Object.entries(next.html)) {
      const part = document.getElementById(id === "log" ? "log" : id);
      if (part) part.innerHTML = html;
    }
    show(atEnd ? data.frames.length - 1 : shown);
  }

  async function poll() {
    if (data.ended) return;
    try {
      const answer = await fetch(`data.json?lang=${lang}&since=${data.version}`,
                                 { cache: "no-store" });
      if (answer.status === 200) update(await answer.json());
    } catch (error) {
      // the bot is restarting or the network is down: try again at the next poll
    }
    setTimeout(poll, POLL_MS);
  }

  document.getElementById("controls").hidden = false;
  show(shown);
  setTimeout(poll, POLL_MS);
})();
