import { z } from 'zod';

/** Validation messages are translation keys; forms translate them when they show them. */
export const ValidationMessages = {
  required: 'validation.required',
  email: 'validation.email',
  passwordLength: 'validation.passwordLength',
  passwordMismatch: 'account.passwordMismatch',
  tooLong: 'validation.tooLong',
} as const;

/** The server's limits of the account fields (users.routes.ts). */
export const NAME_MAX_LENGTH = 64;
export const EMAIL_MAX_LENGTH = 320;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const nameSchema = z
  .string()
  .trim()
  .min(1, ValidationMessages.required)
  .max(NAME_MAX_LENGTH, ValidationMessages.tooLong);

export const emailSchema = z
  .string()
  .trim()
  .min(1, ValidationMessages.required)
  .max(EMAIL_MAX_LENGTH, ValidationMessages.tooLong)
  .pipe(z.email(ValidationMessages.email));

/** A new password: the server's policy (8 to 128 characters). */
export const newPasswordField = z
  .string()
  .min(PASSWORD_MIN_LENGTH, ValidationMessages.passwordLength)
  .max(PASSWORD_MAX_LENGTH, ValidationMessages.tooLong);

/** A new password and its confirmation: 'The confirm password is different!' when they differ. */
export const newPasswordSchema = z
  .object({
    password: newPasswordField,
    confirmedPassword: z.string().min(1, ValidationMessages.required),
  })
  .refine((values) => values.password === values.confirmedPassword, {
    message: ValidationMessages.passwordMismatch,
    path: ['confirmedPassword'],
  });

/** An email that may stay empty (a profile without one); when given it must be valid. */
export const optionalEmailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH, ValidationMessages.tooLong)
  .refine((value) => value === '' || z.email().safeParse(value).success, ValidationMessages.email);

export const optionalNameSchema = z.string().trim().max(NAME_MAX_LENGTH, ValidationMessages.tooLong);
