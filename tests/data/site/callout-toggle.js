// Stands in for Bootstrap's collapse: a click on a callout header shows or hides its target.
document.querySelectorAll("[data-bs-toggle=collapse]").forEach(function (header) {
  header.addEventListener("click", function () {
    document.querySelector(header.dataset.bsTarget).classList.toggle("show");
  });
});
