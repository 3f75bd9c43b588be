import { IconBrandApple, IconBrandUbuntu, IconBrandWindows, IconServer } from '@tabler/icons-react';

/** The operating system of a gateway as an icon, its name as the accessible label. */
export function OsIcon({ name, size = 28 }: { name: string; size?: number }) {
  const os = name.toLowerCase();
  const Icon = os.includes('windows')
    ? IconBrandWindows
    : os.includes('darwin') || os.includes('mac')
      ? IconBrandApple
      : os.includes('linux')
        ? IconBrandUbuntu
        : IconServer;
  return <Icon size={size} aria-label={name} role="img" stroke={1.5} />;
}
