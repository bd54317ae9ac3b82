// A request over its rate limit answers 429 with a message (config/ratelimits.py). htmx does not swap error
// answers, so a live search would silently stop updating: show the message in the request's target instead.
document.addEventListener("htmx:beforeSwap", function (event) {
  if (event.detail.xhr && event.detail.xhr.status === 429) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
