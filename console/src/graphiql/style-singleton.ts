import { useEffect } from 'react';

/**
 * react-style-singleton's API (the build aliases the package to this file), over constructed
 * stylesheets instead of `<style>` elements. Radix's dialogs lock the page's scrolling with
 * react-remove-scroll, which adds its rules through that package; a `<style>` element is an inline
 * style the CSP's `style-src 'self'` refuses, while an adopted CSSStyleSheet is not one.
 */
export function stylesheetSingleton() {
  let users = 0;
  let sheet: CSSStyleSheet | undefined;
  return {
    add(css: string) {
      if (users++ > 0) return;
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    },
    remove() {
      if (--users > 0 || !sheet) return;
      const gone = sheet;
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== gone);
      sheet = undefined;
    },
  };
}

/** A hook adding `styles` while a component using it is mounted (the first one's styles). */
export function styleHookSingleton() {
  const sheet = stylesheetSingleton();
  return (styles: string, isDynamic?: boolean) => {
    useEffect(() => {
      sheet.add(styles);
      return () => sheet.remove();
    }, [styles && isDynamic]);
  };
}

/** The same as a component rendering nothing. */
export function styleSingleton() {
  const useStyle = styleHookSingleton();
  return function Sheet({ styles, dynamic }: { styles: string; dynamic?: boolean }) {
    useStyle(styles, dynamic);
    return null;
  };
}
