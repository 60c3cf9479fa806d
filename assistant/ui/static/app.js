() => {
  // A click on a citation marker opens its source below the same answer and scrolls to it.
  // (The chat's HTML sanitizer keeps classes and text but not data attributes, so the marker
  // finds its source by the "[n]" its summary starts with.) Read by assistant.ui.launch.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.cite");
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    let scope = link.parentElement;
    while (scope && !scope.querySelector("details.sources")) scope = scope.parentElement;
    if (!scope) return;
    const target = [...scope.querySelectorAll("details.source")].find(
      (d) => d.querySelector("summary").textContent.startsWith(link.textContent));
    if (!target) return;
    target.closest("details.sources").open = true;
    target.open = true;
    target.classList.add("flash");
    setTimeout(() => target.classList.remove("flash"), 1500);
    target.scrollIntoView({block: "nearest"});
  }, true);
}
