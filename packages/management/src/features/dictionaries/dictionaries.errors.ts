import { DomainError, invalidField, notFound } from '@portico/model';

export const dictionaryNotFound = (id: string) => notFound('Dictionary', id);

export const dictionaryAlreadyExists = (name: string) =>
  new DomainError(400, `A dictionary named [${name}] already exists.`, 'DICTIONARY_ALREADY_EXISTS', {
    field: 'name',
  });

export const dictionaryTypeFixed = () => invalidField('type', 'the type of a dictionary cannot change');

export const NOT_DEPLOYABLE = 'An automatic dictionary can not be deployed manually';
export const NOT_UNDEPLOYABLE = 'An automatic dictionary can not be undeployed manually';
export const NOT_STARTABLE = 'A manual dictionary can not be started/stopped manually';

export const dictionaryRefused = (message: string) =>
  new DomainError(400, message, 'DICTIONARY_ACTION_REFUSED');

export const dictionaryAlreadyIn = (state: 'STARTED' | 'STOPPED') =>
  new DomainError(
    400,
    `Dictionary is already ${state === 'STARTED' ? 'started' : 'stopped'}`,
    'DICTIONARY_ALREADY_IN_STATE',
  );
