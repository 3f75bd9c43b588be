import type { ComponentPropsWithoutRef } from 'react';

/**
 * The form of a dialog. A dialog is drawn in a portal, yet React's events bubble along the component
 * tree: without this, submitting a dialog would also submit the page's form that holds it (adding a
 * dictionary property saved the whole dictionary, and the answer reset the form under the user).
 */
export function DialogForm({ onSubmit, ...props }: ComponentPropsWithoutRef<'form'>) {
  return (
    <form
      {...props}
      onSubmit={(event) => {
        event.stopPropagation();
        onSubmit?.(event);
      }}
    />
  );
}
