// The public header offers "Painel" to a signed-in visitor. The session itself is an HttpOnly
// cookie scripts cannot read; the server sets `balcao_painel=1` beside it as a plain hint.
(() => {
  const signedIn = document.cookie.split(";").some((pair) => pair.trim() === "balcao_painel=1");
  if (!signedIn) return;
  for (const item of document.querySelectorAll("[data-visitante]")) item.hidden = true;
  for (const item of document.querySelectorAll("[data-conta]")) item.hidden = false;
})();
