// Every text the pages of `context` draw on a canvas (the heatmaps' labels) collects in
// window.canvasTexts, to read what the pictures say.
export function recordCanvasTexts(context) {
  return context.addInitScript(() => {
    window.canvasTexts = [];
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function record(text, ...rest) {
      window.canvasTexts.push(String(text));
      return fillText.call(this, text, ...rest);
    };
  });
}
