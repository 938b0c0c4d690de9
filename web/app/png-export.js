// Turns what a view shows into a PNG that reads on its own: a figure with a title (what is
// shown), a subtitle (the sentence and its translation), the view's picture and a legend of
// its weights, on white, at 2 pixels per CSS pixel. Pictures are {source, width, height}:
// something drawImage takes, and its size in CSS pixels.
import { drawWeightLegend } from './heatmap-canvas.js';
import { linkStyle } from './line-view.js';

const SCALE = 2;
const TITLE_FONT = '600 15px system-ui, sans-serif';
const SUBTITLE_FONT = '13px system-ui, sans-serif';
const LEGEND_LINK_WEIGHTS = [0.1, 0.4, 1];
const MIN_WIDTH = 420;  // room for the legend
const MAX_TEXT_WIDTH = 900;  // a longer title or subtitle is cut with an ellipsis
// Where the picture sits in the figure, in CSS pixels (the tests read the picture there).
export const FIGURE_LAYOUT = { margin: 16, pictureTop: 60, legendGap: 10, legendHeight: 14 };

export function downloadBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A canvas sized by paintHeatmap (its CSS size in style.width and style.height).
export const canvasPicture = (canvas) => ({
  source: canvas, width: parseFloat(canvas.style.width) || 0, height: parseFloat(canvas.style.height) || 0,
});

export async function svgPicture(svg) {
  const image = new Image();
  image.src = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(svg)], { type: 'image/svg+xml' }));
  await image.decode();
  URL.revokeObjectURL(image.src);
  return { source: image, width: Number(svg.getAttribute('width')), height: Number(svg.getAttribute('height')) };
}

// What container shows, on one white canvas: each canvas at its on-screen position and opacity
// (masked heads are dimmed), each text label (.grid-header), each border (the selected head's).
export function containerPicture(container) {
  const box = container.getBoundingClientRect();
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(box.width * SCALE);
  canvas.height = Math.ceil(box.height * SCALE);
  const context = canvas.getContext('2d');
  context.scale(SCALE, SCALE);
  context.fillStyle = '#fff';
  context.fillRect(0, 0, box.width, box.height);
  const at = (element) => {
    const rect = element.getBoundingClientRect();
    return { x: rect.left - box.left, y: rect.top - box.top, width: rect.width, height: rect.height };
  };
  for (const part of container.querySelectorAll('canvas')) {
    const { x, y, width, height } = at(part);
    context.globalAlpha = opacityOf(part, container);
    context.drawImage(part, x, y, width, height);
  }
  context.globalAlpha = 1;
  for (const label of container.querySelectorAll('.grid-header')) {
    const { x, y, width, height } = at(label);
    const style = getComputedStyle(label);
    context.font = style.font;
    context.fillStyle = style.color;
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    context.fillText(label.textContent, x + width / 2, y + height / 2);
  }
  for (const framed of container.querySelectorAll('.selected')) {
    const { x, y, width, height } = at(framed);
    const style = getComputedStyle(framed);
    context.strokeStyle = style.borderTopColor;
    context.lineWidth = parseFloat(style.borderTopWidth);
    context.strokeRect(x + context.lineWidth / 2, y + context.lineWidth / 2, width - context.lineWidth, height - context.lineWidth);
  }
  return { source: canvas, width: box.width, height: box.height };
}

// The product of the opacities from element up to (not including) container.
function opacityOf(element, container) {
  let opacity = 1;
  for (let node = element; node && node !== container; node = node.parentElement) {
    opacity *= Number(getComputedStyle(node).opacity);
  }
  return opacity;
}

// legend: 'weights' (the heatmaps' colour scale) or 'links' (the links' lines by weight).
export async function downloadFigurePng({ picture, title, subtitle, legend }, filename) {
  const { margin, pictureTop, legendGap, legendHeight } = FIGURE_LAYOUT;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  const textWidth = (font, text) => {
    context.font = font;
    return context.measureText(text).width;
  };
  const wanted = Math.max(picture.width, MIN_WIDTH, textWidth(TITLE_FONT, title), textWidth(SUBTITLE_FONT, subtitle));
  const width = Math.ceil(Math.min(wanted, Math.max(picture.width, MAX_TEXT_WIDTH))) + 2 * margin;
  const height = pictureTop + picture.height + legendGap + legendHeight + margin;
  canvas.width = Math.ceil(width * SCALE);
  canvas.height = Math.ceil(height * SCALE);  // resets the context
  context.scale(SCALE, SCALE);
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.textAlign = 'left';
  context.textBaseline = 'alphabetic';
  context.fillStyle = '#1d2433';
  context.font = TITLE_FONT;
  context.fillText(fitted(context, title, width - 2 * margin), margin, margin + 12);
  context.fillStyle = '#5b6475';
  context.font = SUBTITLE_FONT;
  context.fillText(fitted(context, subtitle, width - 2 * margin), margin, margin + 32);
  context.drawImage(picture.source, margin, pictureTop, picture.width, picture.height);
  const legendTop = pictureTop + picture.height + legendGap;
  if (legend === 'links') drawLinkLegend(context, margin, legendTop, legendHeight);
  else drawWeightLegend(context, margin, legendTop);
  downloadBlob(await new Promise((resolve) => canvas.toBlob(resolve, 'image/png')), filename);
}

// text, cut with an ellipsis to fit maxWidth in the context's font.
function fitted(context, text, maxWidth) {
  if (context.measureText(text).width <= maxWidth) return text;
  let end = text.length;
  while (end > 0 && context.measureText(`${text.slice(0, end)}…`).width > maxWidth) end -= 1;
  return `${text.slice(0, end)}…`;
}

// "weight 0.1 ── 0.4 ── 1 ──", each sample line drawn as the links view draws that weight.
function drawLinkLegend(context, x, y, height) {
  context.font = '12px system-ui, sans-serif';
  context.textBaseline = 'middle';
  const middle = y + height / 2;
  context.fillStyle = '#5b6475';
  context.fillText('weight', x, middle);
  let left = x + context.measureText('weight').width + 8;
  for (const weight of LEGEND_LINK_WEIGHTS) {
    context.fillStyle = '#5b6475';
    context.fillText(String(weight), left, middle);
    left += context.measureText(String(weight)).width + 4;
    const style = linkStyle(weight);
    context.strokeStyle = style.stroke;
    context.globalAlpha = Number(style['stroke-opacity']);
    context.lineWidth = Number(style['stroke-width']);
    context.beginPath();
    context.moveTo(left, middle);
    context.lineTo(left + 28, middle);
    context.stroke();
    context.globalAlpha = 1;
    left += 40;
  }
}
