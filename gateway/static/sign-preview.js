// Live preview of the sign creator: redraws the preview image from the form's values while they
// are typed (at most every 400 ms, so a person typing stays far below the server's budget).
// Without this script the image shows the values of the last submit, so the form works as is.
const form = document.querySelector("form[data-sign-preview]");
if (form) {
  const image = document.getElementById(form.dataset.signPreview);
  const status = document.getElementById("previa-estado");
  let timer;
  const redraw = () => {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (name !== "confirmar" && name !== "pedido" && value !== "") query.append(name, value);
    }
    const src = `${image.dataset.base}?${query}`;
    if (image.getAttribute("src") === src) return;
    if (status) status.textContent = "Atualizando a prévia…";
    image.src = src;
  };
  image.addEventListener("load", () => {
    if (status) status.textContent = "";
  });
  image.addEventListener("error", () => {
    if (status)
      status.textContent = "Não foi possível atualizar a prévia agora. Ela volta quando você revisar os dados.";
  });
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(redraw, 400);
  };
  form.addEventListener("input", later);
  form.addEventListener("change", later);
}
