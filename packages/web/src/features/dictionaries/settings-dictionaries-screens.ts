/** The dictionaries' screens, loaded together on first use by the settings menu. */
export { DictionariesPage } from './components/dictionaries-page';
export { DictionaryPage } from './components/dictionary-page';
