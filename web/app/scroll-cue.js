// A frame that scrolls sideways says so: data-more on the frame names the side(s) with more to
// see (left | right | both; styles.css fades them out) and a hint line shows while the content
// is wider than the frame, which a phone's hidden scrollbar would not tell.
export class ScrollCue {
  #frame;
  #hint;

  constructor({ frame, hint }) {
    this.#frame = frame;
    this.#hint = hint;
    frame.addEventListener('scroll', () => this.update(), { passive: true });
  }

  // After the content or the frame's size changed.
  update() {
    const { scrollLeft, scrollWidth, clientWidth } = this.#frame;
    const overflows = scrollWidth > clientWidth + 1;
    const moreLeft = overflows && scrollLeft > 1;
    const moreRight = overflows && scrollLeft + clientWidth < scrollWidth - 1;
    const more = moreLeft && moreRight ? 'both' : moreLeft ? 'left' : moreRight ? 'right' : null;
    if (more) this.#frame.dataset.more = more;
    else delete this.#frame.dataset.more;
    this.#hint.hidden = !overflows;
  }
}
