/** The element the page marks with `selector`, if it has it. */
export const find = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T | null =>
  root.querySelector<T>(selector);

export const findAll = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T[] => [
  ...root.querySelectorAll<T>(selector),
];

/** Shows a part the page keeps hidden until the script can make it work. */
export function reveal(element: HTMLElement): void {
  element.hidden = false;
}

/** Closes `panel` (via `close`) on Escape inside `root` or a press outside it. */
export function dismissible(root: HTMLElement, isOpen: () => boolean, close: (refocus: boolean) => void): void {
  root.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen()) close(true);
  });
  document.addEventListener('pointerdown', (event) => {
    if (isOpen() && !root.contains(event.target as Node)) close(false);
  });
}
